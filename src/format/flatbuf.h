/* A small verifying FlatBuffers reader (docs/PTE.md §2, checklist §2.5).
 *
 * Pull-based: nothing is verified up front; every accessor verifies exactly
 * the bytes it is about to hand out, so a reader that only uses these
 * accessors never reads outside buf[0..len). Each fallible accessor returns
 * false on malformed input and records a short reason in fb->why (a static
 * string) and the offending position in fb->where; pf_fb_error() turns that
 * into a pt_err message with the caller's context.
 *
 * Absent things are not errors: an absent scalar gives its default, an
 * absent table/vector/string gives an object with present == false (and
 * count 0 / ptr NULL), and the accessor returns true. Schema-level
 * requirements ("this field is required") are the caller's business.
 *
 * Checks performed (docs/PTE.md §2.5 items 1-6):
 *  - buffer length >= 8 and < 2^31; root offset in [8, len-4], 4-aligned;
 *  - table: T 4-aligned, T+4 <= len; vtable V = T - s32@T 2-aligned, in range,
 *    vtable size even and >= 4, V+vtable size <= len; inline size >= 4 and
 *    T+inline size <= len; a field at offset o (o == 0 means absent) of
 *    size s needs o < inline size and T+o+s <= len (not o+s <= inline size:
 *    real exporter files have 8-byte fields reaching past the inline size);
 *  - reference fields: the u32 slot is inside the table, the target
 *    F + u32@F is in range (64-bit arithmetic) and 4-aligned;
 *  - vectors: 4 + count*elem_size fits in the buffer (64-bit, overflow
 *    checked); strings: additionally a NUL byte at [length];
 *  - union type codes <= the caller's max code;
 *  - work limits: every verified table costs 1 and every verified vector
 *    costs 1 + count against fb->budget (default 1,000,000 + 8 * len), so a
 *    hostile buffer whose tables share sub-objects cannot make a decoder do
 *    unbounded work; recursive callers can bound depth with pf_fb_enter /
 *    pf_fb_leave (default max depth 64).
 *
 * Positions are byte offsets from the start of the buffer (uint32_t, since
 * len < 2^31). Prefix pf_fb_. */
#ifndef PTERA_FORMAT_FLATBUF_H
#define PTERA_FORMAT_FLATBUF_H

#include "core/core.h"

#define PF_FB_MAX_LEN 0x7fffffffu   /* buffers must be smaller than 2^31 */
#define PF_FB_DEFAULT_DEPTH PTERA_FLATBUF_MAX_DEPTH
#define PF_FB_DEFAULT_TABLES PTERA_FLATBUF_MAX_TABLES

typedef struct pf_fb {
  const uint8_t *buf;
  uint32_t len;
  uint64_t budget;     /* work units left (see above); 0 -> "too complex" */
  uint32_t depth;      /* current depth (pf_fb_enter/leave) */
  uint32_t max_depth;
  const char *why;     /* reason for the last failure (static string) */
  uint32_t where;      /* position involved in the last failure */
} pf_fb;

/* A verified table. present == false for an absent table (pos 0). */
typedef struct pf_fb_table {
  bool present;
  uint32_t pos;        /* T */
  uint32_t vt;         /* V */
  uint16_t vt_size;    /* bytes, includes the two u16 header fields */
  uint16_t inline_size;
} pf_fb_table;

/* A verified vector: count elements of elem_size bytes starting at data. */
typedef struct pf_fb_vec {
  bool present;
  uint32_t pos;        /* position of the u32 count */
  uint32_t data;       /* pos + 4 */
  uint32_t count;
  uint32_t elem_size;
} pf_fb_vec;

/* A verified string: ptr[len] == '\0'. ptr == NULL when absent. */
typedef struct pf_fb_str {
  const char *ptr;
  uint32_t len;
} pf_fb_str;

/* Sets up fb over buf[0..len). False (fb->why set) when len < 8 or
 * len > PF_FB_MAX_LEN. Budget and depth limits get their defaults; callers
 * may lower/raise fb->budget and fb->max_depth afterwards. */
PT_FUNC bool pf_fb_init(pf_fb *fb, const uint8_t *buf, uint64_t len);

/* True when bytes 4..8 of buf equal ident (4 chars); false when size < 8. */
PT_FUNC bool pf_fb_has_ident(const uint8_t *buf, size_t size, const char *ident);

/* The root table: u32 @0 in [8, len-4], 4-aligned, then verified as a table. */
PT_FUNC bool pf_fb_root(pf_fb *fb, pf_fb_table *out);

/* Verifies a table at position pos (costs 1 budget unit). */
PT_FUNC bool pf_fb_table_at(pf_fb *fb, uint64_t pos, pf_fb_table *out);

/* Verifies a vector at position pos with elements of elem_size bytes
 * (elem_size 1..2^16; 4 for vectors of tables/strings). Costs 1 + count. */
PT_FUNC bool pf_fb_vec_at(pf_fb *fb, uint64_t pos, uint32_t elem_size, pf_fb_vec *out);

/* Verifies a string at position pos. Costs 1. */
PT_FUNC bool pf_fb_str_at(pf_fb *fb, uint64_t pos, pf_fb_str *out);

/* Whether field id has a non-zero offset in t's vtable. */
PT_FUNC bool pf_fb_has_field(const pf_fb *fb, const pf_fb_table *t, unsigned id);

/* Low level: position of field id (size bytes) in t; *pos = 0 when absent.
 * False when the field does not fit in the table's inline size. */
PT_FUNC bool pf_fb_field_pos(pf_fb *fb, const pf_fb_table *t, unsigned id, uint32_t size,
                             uint32_t *pos);

/* Scalar fields: *out = def when the field (or the table) is absent.
 * pf_fb_bool treats any non-zero byte as true. */
PT_FUNC bool pf_fb_u8(pf_fb *fb, const pf_fb_table *t, unsigned id, uint8_t def, uint8_t *out);
PT_FUNC bool pf_fb_i8(pf_fb *fb, const pf_fb_table *t, unsigned id, int8_t def, int8_t *out);
PT_FUNC bool pf_fb_bool(pf_fb *fb, const pf_fb_table *t, unsigned id, bool def, bool *out);
PT_FUNC bool pf_fb_u16(pf_fb *fb, const pf_fb_table *t, unsigned id, uint16_t def, uint16_t *out);
PT_FUNC bool pf_fb_i16(pf_fb *fb, const pf_fb_table *t, unsigned id, int16_t def, int16_t *out);
PT_FUNC bool pf_fb_u32(pf_fb *fb, const pf_fb_table *t, unsigned id, uint32_t def, uint32_t *out);
PT_FUNC bool pf_fb_i32(pf_fb *fb, const pf_fb_table *t, unsigned id, int32_t def, int32_t *out);
PT_FUNC bool pf_fb_u64(pf_fb *fb, const pf_fb_table *t, unsigned id, uint64_t def, uint64_t *out);
PT_FUNC bool pf_fb_i64(pf_fb *fb, const pf_fb_table *t, unsigned id, int64_t def, int64_t *out);
PT_FUNC bool pf_fb_f32(pf_fb *fb, const pf_fb_table *t, unsigned id, float def, float *out);
PT_FUNC bool pf_fb_f64(pf_fb *fb, const pf_fb_table *t, unsigned id, double def, double *out);

/* Reference fields (absent -> present == false / ptr NULL, returns true). */
PT_FUNC bool pf_fb_table_field(pf_fb *fb, const pf_fb_table *t, unsigned id, pf_fb_table *out);
PT_FUNC bool pf_fb_vec_field(pf_fb *fb, const pf_fb_table *t, unsigned id, uint32_t elem_size,
                             pf_fb_vec *out);
PT_FUNC bool pf_fb_str_field(pf_fb *fb, const pf_fb_table *t, unsigned id, pf_fb_str *out);

/* A union stored as fields type_id (u8 code) and type_id + 1 (offset to a
 * table). *type = 0 (NONE) leaves value absent. A code > max_code fails
 * ("unknown union type"). A non-NONE code with an absent value is returned
 * as is (value->present == false); callers decide whether that is allowed. */
PT_FUNC bool pf_fb_union_field(pf_fb *fb, const pf_fb_table *t, unsigned type_id, uint8_t max_code,
                               uint8_t *type, pf_fb_table *value);

/* Scalar vector elements. These never fail and never read out of bounds:
 * they return 0 when i >= v->count, v is absent, or v->elem_size differs from
 * the element type's size. Check i < v->count yourself. */
PT_FUNC uint8_t pf_fb_vec_u8(const pf_fb *fb, const pf_fb_vec *v, uint32_t i);
PT_FUNC uint16_t pf_fb_vec_u16(const pf_fb *fb, const pf_fb_vec *v, uint32_t i);
PT_FUNC uint32_t pf_fb_vec_u32(const pf_fb *fb, const pf_fb_vec *v, uint32_t i);
PT_FUNC int32_t pf_fb_vec_i32(const pf_fb *fb, const pf_fb_vec *v, uint32_t i);
PT_FUNC uint64_t pf_fb_vec_u64(const pf_fb *fb, const pf_fb_vec *v, uint32_t i);
PT_FUNC int64_t pf_fb_vec_i64(const pf_fb *fb, const pf_fb_vec *v, uint32_t i);
PT_FUNC float pf_fb_vec_f32(const pf_fb *fb, const pf_fb_vec *v, uint32_t i);
PT_FUNC double pf_fb_vec_f64(const pf_fb *fb, const pf_fb_vec *v, uint32_t i);
/* Pointer to the element data (count * elem_size bytes, verified), NULL when
 * absent. Use for byte blobs and vectors of structs. */
PT_FUNC const uint8_t *pf_fb_vec_data(const pf_fb *fb, const pf_fb_vec *v);

/* Elements of vectors of tables / strings (elem_size 4). Fail when i is out
 * of range or the target does not verify. */
PT_FUNC bool pf_fb_vec_table(pf_fb *fb, const pf_fb_vec *v, uint32_t i, pf_fb_table *out);
PT_FUNC bool pf_fb_vec_str(pf_fb *fb, const pf_fb_vec *v, uint32_t i, pf_fb_str *out);

/* Depth accounting for recursive decoders: enter fails ("nested too deeply")
 * past fb->max_depth; every successful enter needs one leave. */
PT_FUNC bool pf_fb_enter(pf_fb *fb);
PT_FUNC void pf_fb_leave(pf_fb *fb);

/* Records a caller-detected problem in fb (why must be a static string). */
PT_FUNC bool pf_fb_bad(pf_fb *fb, uint32_t where, const char *why);

/* Fails err with "<formatted context>: <fb->why> (at byte <fb->where>)" and
 * returns status. */
#if PTERA_STRIP_MESSAGES
#define pf_fb_error(fb, err, status, ...) ((void)(fb), pt_fail((err), (status), __VA_ARGS__))
#else
PT_FUNC ptera_status pf_fb_error(const pf_fb *fb, pt_err *err, ptera_status status,
                                 const char *fmt, ...) PT_PRINTF(4, 5);
#endif

#endif

/* A small generic FlatBuffers builder (docs/PTE.md §2). Prefix pc_fbb_.
 *
 * Builds back to front, like the reference builder: the buffer grows towards
 * lower addresses, so every child object (string, vector, table) exists
 * before the table or vector that refers to it, and every reference points
 * forward, as the format requires. An object is named by a pc_fbb_ref: its
 * distance from the *end* of the buffer, which stays valid while the buffer
 * grows. 0 is never a valid ref and means "absent".
 *
 * Alignment is kept relative to the end of the buffer; pc_fbb_finish pads
 * the front so the total size is a multiple of the largest alignment used,
 * which turns every relative alignment into an absolute one once the
 * finished bytes sit at an address aligned to that maximum.
 *
 * Errors are sticky: the first failure (allocation, size limit, misuse)
 * records a status; every later call does nothing and returns 0, and
 * pc_fbb_status / pc_fbb_finish report it. Nothing aborts or prints. All
 * memory comes from the allocator given to pc_fbb_init and is returned by
 * pc_fbb_release.
 *
 * Usage: create children, then
 *   pc_fbb_table_start(b); pc_fbb_add_*(b, id, ...); ref = pc_fbb_table_end(b);
 * While a table is open only pc_fbb_add_* may be called. Vectors of refs are
 * built from an array (pc_fbb_vec_refs) or from the builder's scratch stack
 * (pc_fbb_push then pc_fbb_vec_stack), which avoids caller allocations.
 * Scalars are written little-endian whatever the host. */
#ifndef PTERA_COMPILER_FBB_H
#define PTERA_COMPILER_FBB_H

#include "core/core.h"

typedef uint32_t pc_fbb_ref;

#define PC_FBB_MAX_SIZE 0x7fffffffu /* finished buffers stay below 2^31 */

typedef struct pc_fbb_field {
  uint32_t id;
  uint32_t off; /* ref of the field's first byte (distance from the end) */
} pc_fbb_field;

typedef struct pc_fbb {
  const ptera_allocator *allocator;
  uint8_t *buf;       /* data lives in buf[cap - size, cap) */
  size_t cap;
  size_t size;
  size_t max_align;
  ptera_status status;
  bool in_table;
  size_t table_start; /* size when the open table started */
  pc_fbb_field *fields;
  size_t nfields, fields_cap;
  pc_fbb_ref *stack;  /* scratch stack for pc_fbb_push / pc_fbb_vec_stack */
  size_t nstack, stack_cap;
  bool finished;
} pc_fbb;

/* Sets up an empty builder (no allocation yet). allocator NULL = default. */
PT_FUNC void pc_fbb_init(pc_fbb *b, const ptera_allocator *allocator);
/* Frees everything the builder holds; b may then be re-initialised. */
PT_FUNC void pc_fbb_release(pc_fbb *b);
PT_FUNC ptera_status pc_fbb_status(const pc_fbb *b);

/* A string: u32 length, bytes, NUL. s may be NULL when len == 0. */
PT_FUNC pc_fbb_ref pc_fbb_string(pc_fbb *b, const char *s, size_t len);
PT_FUNC pc_fbb_ref pc_fbb_cstring(pc_fbb *b, const char *s);

/* A vector of count scalars of elem_size (1, 2, 4 or 8) bytes given in host
 * order (each is stored little-endian). The element data is aligned to
 * max(elem_size, force_align); force_align 0 = none, else a power of two
 * (e.g. 16 for Buffer.storage). count 0 gives an empty (present) vector. */
PT_FUNC pc_fbb_ref pc_fbb_vec_scalars(pc_fbb *b, const void *data, size_t count, size_t elem_size,
                                      size_t force_align);
/* A vector of refs (tables or strings); every ref must be non-zero. */
PT_FUNC pc_fbb_ref pc_fbb_vec_refs(pc_fbb *b, const pc_fbb_ref *refs, size_t count);
/* Scratch stack: push refs, then pc_fbb_vec_stack(count) pops the top count
 * refs into a vector (the first pushed becomes element 0). */
PT_FUNC void pc_fbb_push(pc_fbb *b, pc_fbb_ref ref);
PT_FUNC pc_fbb_ref pc_fbb_vec_stack(pc_fbb *b, size_t count);

/* Tables. Field ids may come in any order but each at most once. */
PT_FUNC void pc_fbb_table_start(pc_fbb *b);
PT_FUNC void pc_fbb_add_u8(pc_fbb *b, unsigned id, uint8_t v);
PT_FUNC void pc_fbb_add_i8(pc_fbb *b, unsigned id, int8_t v);
PT_FUNC void pc_fbb_add_bool(pc_fbb *b, unsigned id, bool v);
PT_FUNC void pc_fbb_add_u16(pc_fbb *b, unsigned id, uint16_t v);
PT_FUNC void pc_fbb_add_i16(pc_fbb *b, unsigned id, int16_t v);
PT_FUNC void pc_fbb_add_u32(pc_fbb *b, unsigned id, uint32_t v);
PT_FUNC void pc_fbb_add_i32(pc_fbb *b, unsigned id, int32_t v);
PT_FUNC void pc_fbb_add_u64(pc_fbb *b, unsigned id, uint64_t v);
PT_FUNC void pc_fbb_add_i64(pc_fbb *b, unsigned id, int64_t v);
PT_FUNC void pc_fbb_add_f32(pc_fbb *b, unsigned id, float v);
PT_FUNC void pc_fbb_add_f64(pc_fbb *b, unsigned id, double v);
/* Offset field to a table/vector/string; ref 0 adds nothing (absent). */
PT_FUNC void pc_fbb_add_ref(pc_fbb *b, unsigned id, pc_fbb_ref ref);
/* Union: u8 code at type_id, offset at type_id + 1 (ref 0: offset absent). */
PT_FUNC void pc_fbb_add_union(pc_fbb *b, unsigned type_id, uint8_t code, pc_fbb_ref ref);
PT_FUNC pc_fbb_ref pc_fbb_table_end(pc_fbb *b);

/* Writes the root offset (and the 4-char file identifier when ident is not
 * NULL) and pads to the maximum alignment. No further building afterwards. */
PT_FUNC ptera_status pc_fbb_finish(pc_fbb *b, pc_fbb_ref root, const char *ident);
/* The finished bytes (owned by the builder), NULL unless finished OK. */
PT_FUNC const uint8_t *pc_fbb_data(const pc_fbb *b, size_t *size);
/* Largest alignment used (>= 4 once anything was written). */
PT_FUNC size_t pc_fbb_max_align(const pc_fbb *b);

#endif

/* Internal helpers shared by every module: errors, allocation, arenas,
 * checked arithmetic, little-endian loads. Prefix pt_. */
#ifndef PTERA_CORE_H
#define PTERA_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptera/alloc.h"
#include "ptera/status.h"
#include "ptera/tensor.h"

#if defined(__GNUC__)
#define PT_FUNC __attribute__((visibility("hidden")))
#define PT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PT_FUNC
#define PT_PRINTF(a, b)
#endif

/* An error with a message for the user. */
#define PT_ERRMSG_SIZE PTERA_ERRMSG_SIZE
typedef struct pt_err {
  ptera_status status;
  char msg[PT_ERRMSG_SIZE];
} pt_err;

PT_FUNC void pt_err_clear(pt_err *e);
/* Copies e's message ("" when e is OK) into a caller's buffer of cap bytes
 * (NUL-terminated, cut to fit); nothing when buf is NULL or cap 0. */
PT_FUNC void pt_err_copy(const pt_err *e, char *buf, size_t cap);
#if PTERA_STRIP_MESSAGES
/* Status codes only: the message is the status name, and the format and its
 * arguments are dropped at the call site (never evaluated, never linked). */
PT_FUNC ptera_status pt_fail_status(pt_err *e, ptera_status status);
#define pt_fail(e, status, ...) (PTERA_DISCARD_MESSAGE(__VA_ARGS__), pt_fail_status((e), (status)))
#define pt_err_prefix(e, ...) ((void)(e), PTERA_DISCARD_MESSAGE(__VA_ARGS__))
static inline int pt_snprintf_none(char *buf, size_t cap) {
  if (cap) buf[0] = '\0';
  return 0;
}
#define pt_snprintf(buf, cap, ...) (PTERA_DISCARD_MESSAGE(__VA_ARGS__), pt_snprintf_none((buf), (cap)))
#else
/* Sets e (when non-NULL) and returns status. */
PT_FUNC ptera_status pt_fail(pt_err *e, ptera_status status, const char *fmt, ...) PT_PRINTF(3, 4);
/* Prepends "prefix: " to the message already in e. */
PT_FUNC void pt_err_prefix(pt_err *e, const char *fmt, ...) PT_PRINTF(2, 3);
/* snprintf for text that only feeds messages (gone when they are stripped). */
#define pt_snprintf snprintf
#endif

/* Allocation through a hook (NULL hook = default). */
PT_FUNC void *pt_alloc(const ptera_allocator *a, size_t size, size_t align);
PT_FUNC void *pt_calloc(const ptera_allocator *a, size_t count, size_t size, size_t align);
PT_FUNC void pt_free(const ptera_allocator *a, void *p);

/* A measuring ptera_buffer_allocator (buffer_alloc.c): the blocks come from
 * backing (NULL: the default), the offsets count as in a real one, and peak
 * ends as the bytes a real one needs for the same requests. */
PT_FUNC void pt_measure_init(ptera_buffer_allocator *b, const ptera_allocator *backing);

/* Bump arena over an allocator: many small allocations, one release. */
typedef struct pt_arena_block pt_arena_block;
typedef struct pt_arena {
  const ptera_allocator *allocator;
  pt_arena_block *head;
  size_t used;     /* in head */
  size_t capacity; /* of head */
  size_t total;    /* bytes obtained from the allocator */
} pt_arena;

PT_FUNC void pt_arena_init(pt_arena *arena, const ptera_allocator *allocator);
/* Zero-filled memory; NULL on exhaustion. */
PT_FUNC void *pt_arena_alloc(pt_arena *arena, size_t size, size_t align);
/* Zero-filled array; NULL on overflow or exhaustion. */
PT_FUNC void *pt_arena_array(pt_arena *arena, size_t count, size_t size, size_t align);
PT_FUNC void pt_arena_release(pt_arena *arena);

/* Appends s to the NUL-terminated string in dst[cap], truncating (names
 * built without printf, which a build without messages does not link). */
static inline void pt_append(char *dst, size_t cap, const char *s) {
  size_t n = strnlen(dst, cap);
  while (*s && n + 1 < cap) dst[n++] = *s++;
  if (n < cap) dst[n] = '\0';
}

/* Checked arithmetic: return false on overflow. */
static inline bool pt_mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
  if (a != 0 && b > UINT64_MAX / a) return false;
  *out = a * b;
  return true;
}
static inline bool pt_add_u64(uint64_t a, uint64_t b, uint64_t *out) {
  if (b > UINT64_MAX - a) return false;
  *out = a + b;
  return true;
}

/* Little-endian loads from possibly unaligned bytes. */
static inline uint16_t pt_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t pt_le32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t pt_le64(const uint8_t *p) {
  return (uint64_t)pt_le32(p) | ((uint64_t)pt_le32(p + 4) << 32);
}
static inline void pt_put_le32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void pt_put_le64(uint8_t *p, uint64_t v) {
  pt_put_le32(p, (uint32_t)v);
  pt_put_le32(p + 4, (uint32_t)(v >> 32));
}

/* Half and bfloat16 conversions (round to nearest even). */
PT_FUNC float pt_half_to_float(uint16_t h);
PT_FUNC uint16_t pt_float_to_half(float f);
PT_FUNC float pt_bf16_to_float(uint16_t h);
PT_FUNC uint16_t pt_float_to_bf16(float f);

/* Sized structs (ptera/export.h): the caller's struct, whose first member
 * is its size_t struct_size, against the library's. PT_SIZE_THROUGH gives a
 * version's size (offset past its last member). */
#define PT_SIZE_THROUGH(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))
/* Reads the caller's options src into dst (the library's dst_size-byte
 * struct): zero-fills dst, copies what both know and sets dst's struct_size
 * to dst_size. InvalidArgument when src's struct_size is below min_size;
 * NotSupported when src is longer than dst_size with a non-zero byte past
 * it. type names the struct in the message set in err. */
PT_FUNC ptera_status pt_struct_in(void *dst, size_t dst_size, const void *src, size_t min_size,
                                  const char *type, pt_err *err);
/* Writes the library's src (src_size bytes, its struct_size ignored) into
 * the caller's dst: min(dst's struct_size, src_size) bytes, leaving dst's
 * struct_size. InvalidArgument when dst's struct_size is below min_size. */
PT_FUNC ptera_status pt_struct_out(void *dst, const void *src, size_t src_size, size_t min_size);

/* numel of sizes with overflow check; false on overflow or a negative size. */
PT_FUNC bool pt_numel(const int32_t *sizes, size_t dim, uint64_t *out);

#endif

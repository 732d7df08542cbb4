/* ptera — allocator hooks. Every heap allocation the library makes goes
 * through one of these (NULL means the platform's aligned malloc/free). */
#ifndef PTERA_ALLOC_H
#define PTERA_ALLOC_H

#include <stddef.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptera_allocator {
  /* Returns size bytes aligned to align (a power of two), or NULL. */
  void *(*alloc)(void *user_data, size_t size, size_t align);
  /* Frees a pointer returned by alloc; p may be NULL. */
  void (*free)(void *user_data, void *p);
  void *user_data;
} ptera_allocator;

/* The platform default allocator (never NULL): aligned malloc and free, or,
 * in a PTERA_NO_HEAP build, one whose every request fails. */
PTERA_API const ptera_allocator *ptera_allocator_default(void);

/* The name before 0.2, kept for one release. */
PTERA_API PTERA_DEPRECATED("use ptera_allocator_default") const ptera_allocator *
ptera_default_allocator(void);

/* A bump allocator over caller memory: for builds without a heap, and for
 * any caller that wants every byte in one place it owns. Requests are
 * carved in order; a free releases the block when it is the newest live one
 * (and, with it, older blocks freed before), so loading, destroying and
 * loading again reuses the space. Not thread-safe.
 *
 * ptera_program_memory_needed and ptera_method_memory_needed (program.h,
 * method.h) give the exact size a load takes from one of these. */
typedef struct ptera_buffer_allocator {
  ptera_allocator allocator; /* pass &b.allocator in the load or method options */
  unsigned char *base;       /* the memory, from its first 64-byte aligned byte */
  size_t capacity;           /* bytes from base */
  size_t top;                /* bytes in use, including headers and padding */
  size_t peak;               /* the largest top so far */
  void *newest;              /* the newest live block, or NULL */
  /* Set by the library's measuring queries: blocks come from here and the
   * offsets are only counted (capacity is then unlimited). NULL otherwise. */
  const ptera_allocator *backing;
} ptera_buffer_allocator;

/* Bytes of bookkeeping in front of every block of a buffer allocator. */
#define PTERA_BUFFER_BLOCK_HEADER (4 * sizeof(void *))

/* Starts b over memory[0, size); memory need not be aligned (up to 63 bytes
 * at its start are skipped to reach 64-byte alignment). */
PTERA_API void ptera_buffer_allocator_init(ptera_buffer_allocator *b, void *memory, size_t size);

#ifdef __cplusplus
}
#endif
#endif

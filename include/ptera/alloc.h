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

/* The platform default allocator (never NULL). */
PTERA_API const ptera_allocator *ptera_allocator_default(void);

/* The name before 0.2, kept for one release. */
PTERA_API PTERA_DEPRECATED("use ptera_allocator_default") const ptera_allocator *
ptera_default_allocator(void);

#ifdef __cplusplus
}
#endif
#endif

#include <stdlib.h>

#include "core.h"

#if PTERA_NO_HEAP
/* No heap in this build: the default allocator refuses, so every load must
 * name an allocator (a ptera_buffer_allocator over caller memory). */
static void *default_alloc(void *ud, size_t size, size_t align) { return NULL; }

static void default_free(void *ud, void *p) {}
#else
static void *default_alloc(void *ud, size_t size, size_t align) {
  (void)ud;
  if (align < sizeof(void *)) align = sizeof(void *);
  if (size == 0) size = 1;
  size_t rounded = (size + align - 1) & ~(align - 1);
  if (rounded < size) return NULL;
  return aligned_alloc(align, rounded);
}

static void default_free(void *ud, void *p) {
  (void)ud;
  free(p);
}
#endif
static const ptera_allocator default_allocator = {default_alloc, default_free, NULL};

const ptera_allocator *ptera_allocator_default(void) { return &default_allocator; }

void *pt_alloc(const ptera_allocator *a, size_t size, size_t align) {
  if (!a) a = &default_allocator;
  return a->alloc(a->user_data, size, align);
}

void *pt_calloc(const ptera_allocator *a, size_t count, size_t size, size_t align) {
  uint64_t total;
  if (!pt_mul_u64(count, size, &total) || total > SIZE_MAX) return NULL;
  void *p = pt_alloc(a, (size_t)total, align);
  if (p) memset(p, 0, (size_t)total);
  return p;
}

void pt_free(const ptera_allocator *a, void *p) {
  if (!p) return;
  if (!a) a = &default_allocator;
  a->free(a->user_data, p);
}

/* The thread pool without threads (PTERA_THREADS=OFF, for MCUs): the same
 * API, every loop run inline on the calling thread. */
#include "core/core.h"
#include "ptera/threadpool.h"

struct ptera_threadpool {
  const ptera_allocator *allocator;
};

ptera_status ptera_threadpool_create(size_t nthreads, const ptera_allocator *a,
                                     ptera_threadpool **out) {
  (void)nthreads;
  if (!out) return PTERA_INVALID_ARGUMENT;
  *out = pt_calloc(a, 1, sizeof **out, 16);
  if (!*out) return PTERA_MEMORY_ALLOCATION_FAILED;
  (*out)->allocator = a;
  return PTERA_OK;
}

void ptera_threadpool_destroy(ptera_threadpool *p) {
  if (p) pt_free(p->allocator, p);
}

size_t ptera_threadpool_size(const ptera_threadpool *p) {
  (void)p;
  return 1;
}

void ptera_threadpool_parallel_for(ptera_threadpool *p, size_t n, size_t grain, ptera_task_fn fn,
                                   void *arg) {
  (void)p;
  (void)grain;
  if (n && fn) fn(arg, 0, n);
}

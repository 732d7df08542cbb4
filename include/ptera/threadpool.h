/* ptera — a thread pool for kernels' parallel loops. Attach one to methods
 * through ptera_method_options.threadpool; kernels reach it only through
 * ptera_kernel_parallel_for. Built with PTERA_THREADS=OFF (MCUs) the same
 * API runs every loop inline on the calling thread and a pool has size 1. */
#ifndef PTERA_THREADPOOL_H
#define PTERA_THREADPOOL_H

#include <stddef.h>

#include "alloc.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptera_threadpool ptera_threadpool;

/* A share of a parallel loop: items [begin, end) of n. */
typedef void (*ptera_task_fn)(void *arg, size_t begin, size_t end);

/* A pool of nthreads threads counting the caller (nthreads - 1 workers are
 * started); 0 = one per online core. a may be NULL (the default
 * allocator). OutOfResources when a thread cannot be started. */
PTERA_API ptera_status ptera_threadpool_create(size_t nthreads, const ptera_allocator *a,
                                               ptera_threadpool **out);
/* Stops and joins the workers; NULL is fine. No parallel_for may be running. */
PTERA_API void ptera_threadpool_destroy(ptera_threadpool *pool);
/* Threads a parallel_for may use, the caller included; 1 for NULL. */
PTERA_API size_t ptera_threadpool_size(const ptera_threadpool *pool);

/* Splits [0, n) into chunks of at least grain items (0 counts as 1), runs
 * fn on each, the calling thread taking chunks too, and returns when all are
 * done. Chunks are claimed one at a time, so a worker the OS deschedules
 * delays only the chunk it holds. Each thread first takes the chunks of its
 * own share of [0, n) (the caller the first share, then the workers in
 * order) and then helps with the others', so a kernel that splits
 * consecutive loops alike keeps each part on the same thread when all run.
 * On Linux, a worker that wakes for a loop on the CPU the caller started
 * it on moves itself off that CPU (its affinity without that CPU, then its
 * own affinity back, at most once a millisecond), so that the two do not
 * take turns on one CPU while another is idle; a worker's affinity is
 * otherwise left as the thread that created the pool had it.
 * A NULL pool, n <= grain or a one-thread
 * pool runs fn(arg, 0, n) inline (nothing when n is 0).
 *
 * One pool may serve many methods and threads: a loop runs on the pool's
 * workers when the pool is free, and inline on the calling thread when
 * another loop holds it (another thread's, or this loop's own, when fn calls
 * parallel_for again), so concurrent and nested calls are safe and always
 * finish, the later ones single-threaded. */
PTERA_API void ptera_threadpool_parallel_for(ptera_threadpool *pool, size_t n, size_t grain,
                                             ptera_task_fn fn, void *arg);

#ifdef __cplusplus
}
#endif
#endif

/* The thread pool on POSIX threads (PTERA_THREADS=ON; the only file that
 * uses pthreads). Built for a shared, noisy host:
 *  - the caller takes chunks too, so a loop finishes even if no worker runs;
 *  - chunks are claimed one at a time from a counter, so a descheduled
 *    worker holds up only the chunk it claimed;
 *  - workers spin briefly for the next loop (kernels come back to back),
 *    then sleep on a condition variable;
 *  - counters are 32-bit atomics (no 64-bit atomics on small targets).
 * A claim reads the loop's description only after taking a chunk from
 * `remaining`, and the caller rewrites it only after every chunk is `done`,
 * so a worker that wakes late can never run a stale or half-written loop. */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "core/core.h"
#include "ptera/threadpool.h"

#define PR_POOL_SPIN 4000u
#define PR_POOL_CHUNKS_PER_THREAD 4u

struct ptera_threadpool {
  const ptera_allocator *allocator;
  size_t nthreads; /* the caller included */
  size_t nstarted; /* workers running */
  pthread_t *threads;
  pthread_mutex_t mu;
  pthread_cond_t wake;     /* workers: a new loop or stop */
  pthread_cond_t finished; /* the caller: the last chunk is done */
  atomic_flag busy;        /* a loop holds the workers */
  atomic_uint gen;         /* bumped once per loop */
  atomic_uint stop;
  atomic_uint remaining;   /* chunks not claimed yet */
  atomic_uint done;        /* chunks finished */
  /* The loop in flight (see above for who may touch it when). */
  ptera_task_fn fn;
  void *arg;
  size_t n, chunk;
  unsigned nchunks;
};

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

/* Claims and runs chunks until none is left. */
static void run_chunks(ptera_threadpool *p, int is_caller) {
  for (;;) {
    unsigned r = atomic_load_explicit(&p->remaining, memory_order_acquire);
    do {
      if (r == 0) return;
    } while (!atomic_compare_exchange_weak_explicit(&p->remaining, &r, r - 1, memory_order_acq_rel,
                                                    memory_order_acquire));
    /* The chunk is ours: the loop cannot change until we report it done. */
    ptera_task_fn fn = p->fn;
    void *arg = p->arg;
    size_t total = p->nchunks, begin = (total - r) * p->chunk;
    size_t end = p->n - begin < p->chunk ? p->n : begin + p->chunk;
    fn(arg, begin, end);
    unsigned d = atomic_fetch_add_explicit(&p->done, 1, memory_order_acq_rel) + 1;
    if (d == total && !is_caller) {
      pthread_mutex_lock(&p->mu);
      pthread_cond_signal(&p->finished);
      pthread_mutex_unlock(&p->mu);
    }
  }
}

static void *worker_main(void *arg) {
  ptera_threadpool *p = arg;
  unsigned seen = 0; /* gen at create: a worker that starts late still joins the first loop */
  for (;;) {
    unsigned spins = 0;
    while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen &&
           !atomic_load_explicit(&p->stop, memory_order_acquire)) {
      if (++spins < PR_POOL_SPIN) {
        cpu_relax();
        continue;
      }
      pthread_mutex_lock(&p->mu);
      while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen &&
             !atomic_load_explicit(&p->stop, memory_order_acquire))
        pthread_cond_wait(&p->wake, &p->mu);
      pthread_mutex_unlock(&p->mu);
    }
    if (atomic_load_explicit(&p->stop, memory_order_acquire)) return NULL;
    seen = atomic_load_explicit(&p->gen, memory_order_acquire);
    run_chunks(p, 0);
  }
}

static size_t online_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (size_t)n : 1;
}

ptera_status ptera_threadpool_create(size_t nthreads, const ptera_allocator *a,
                                     ptera_threadpool **out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  *out = NULL;
  if (nthreads == 0) nthreads = online_cores();
  if (nthreads > PTERA_MAX_THREADS) nthreads = PTERA_MAX_THREADS;
  ptera_threadpool *p = pt_calloc(a, 1, sizeof *p, 64);
  if (!p) return PTERA_MEMORY_ALLOCATION_FAILED;
  p->allocator = a;
  p->nthreads = nthreads;
  atomic_flag_clear(&p->busy);
  atomic_init(&p->gen, 0);
  atomic_init(&p->stop, 0);
  atomic_init(&p->remaining, 0);
  atomic_init(&p->done, 0);
  if (nthreads > 1) {
    p->threads = pt_calloc(a, nthreads - 1, sizeof *p->threads, 16);
    if (!p->threads) {
      pt_free(a, p);
      return PTERA_MEMORY_ALLOCATION_FAILED;
    }
  }
  int inited = pthread_mutex_init(&p->mu, NULL) == 0;
  if (inited == 1) inited += pthread_cond_init(&p->wake, NULL) == 0;
  if (inited == 2) inited += pthread_cond_init(&p->finished, NULL) == 0;
  if (inited < 3) {
    if (inited > 1) pthread_cond_destroy(&p->wake);
    if (inited > 0) pthread_mutex_destroy(&p->mu);
    pt_free(a, p->threads);
    pt_free(a, p);
    return PTERA_OUT_OF_RESOURCES;
  }
  for (size_t i = 0; i + 1 < nthreads; i++) {
    if (pthread_create(&p->threads[i], NULL, worker_main, p) != 0) {
      ptera_threadpool_destroy(p);
      return PTERA_OUT_OF_RESOURCES;
    }
    p->nstarted++;
  }
  *out = p;
  return PTERA_OK;
}

void ptera_threadpool_destroy(ptera_threadpool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  atomic_store_explicit(&p->stop, 1, memory_order_release);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (size_t i = 0; i < p->nstarted; i++) pthread_join(p->threads[i], NULL);
  pthread_cond_destroy(&p->finished);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->mu);
  const ptera_allocator *a = p->allocator;
  pt_free(a, p->threads);
  pt_free(a, p);
}

size_t ptera_threadpool_size(const ptera_threadpool *p) { return p ? p->nthreads : 1; }

void ptera_threadpool_parallel_for(ptera_threadpool *p, size_t n, size_t grain, ptera_task_fn fn,
                                   void *arg) {
  if (!n || !fn) return;
  if (grain == 0) grain = 1;
  size_t threads = p ? p->nstarted + 1 : 1;
  if (threads == 1 || n <= grain) {
    fn(arg, 0, n);
    return;
  }
  size_t target = threads * PR_POOL_CHUNKS_PER_THREAD;
  size_t chunk = (n - 1) / target + 1;
  if (chunk < grain) chunk = grain;
  size_t nchunks = (n - 1) / chunk + 1;
  /* Busy (another thread's loop, or fn calling back in): run inline. */
  if (nchunks == 1 || atomic_flag_test_and_set_explicit(&p->busy, memory_order_acquire)) {
    fn(arg, 0, n);
    return;
  }
  p->fn = fn;
  p->arg = arg;
  p->n = n;
  p->chunk = chunk;
  p->nchunks = (unsigned)nchunks;
  atomic_store_explicit(&p->done, 0, memory_order_relaxed);
  atomic_store_explicit(&p->remaining, (unsigned)nchunks, memory_order_release);
  atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
  pthread_mutex_lock(&p->mu);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  run_chunks(p, 1);
  unsigned spins = 0;
  while (atomic_load_explicit(&p->done, memory_order_acquire) != nchunks) {
    if (++spins < PR_POOL_SPIN) {
      cpu_relax();
      continue;
    }
    pthread_mutex_lock(&p->mu);
    while (atomic_load_explicit(&p->done, memory_order_acquire) != nchunks)
      pthread_cond_wait(&p->finished, &p->mu);
    pthread_mutex_unlock(&p->mu);
  }
  atomic_flag_clear_explicit(&p->busy, memory_order_release);
}

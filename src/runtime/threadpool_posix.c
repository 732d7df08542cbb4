/* The thread pool on POSIX threads (PTERA_THREADS=ON; the only file that
 * uses pthreads). Built for a shared, noisy host:
 *  - the caller takes chunks too, so a loop finishes even if no worker runs;
 *  - chunks are claimed one at a time, so a descheduled worker holds up
 *    only the chunk it claimed;
 *  - each thread has a home range of the chunks, the same share of [0, n)
 *    in every loop (the caller the first, worker i the (i+1)-th), claimed
 *    from its front; a thread whose range is empty takes chunks from the
 *    back of another's. Kernels that cut their work the same way in
 *    consecutive loops (the rows of a plane, layer after layer) then read
 *    mostly what the same thread wrote, in its own core's cache;
 *  - workers spin briefly for the next loop (kernels come back to back),
 *    then sleep on a condition variable;
 *  - a worker that wakes for a loop on the CPU its caller started the loop
 *    on moves itself off it (Linux: its affinity without that CPU, then its
 *    own affinity back; at most once a millisecond). The scheduler can
 *    place a woken worker on its waker's CPU with another CPU idle, and on
 *    a 2-vCPU VM the two then took turns on one CPU for a few hundred
 *    milliseconds after load: 2 threads as slow as one (an MLP of 80 us,
 *    half the processes at 165 us);
 *  - counters are 32-bit atomics (no 64-bit atomics on small targets).
 * A claim reads the loop's description only after taking a chunk from a
 * range, and the caller rewrites it only after every chunk is `done`,
 * so a worker that wakes late can never run a stale or half-written loop. */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getcpu, sched_setaffinity, cpu_set_t */
#include <sched.h>
#include <time.h>
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "core/core.h"
#include "ptera/threadpool.h"

#define PR_POOL_SPIN 4000u
#define PR_POOL_CHUNKS_PER_THREAD 16u /* at most 16 * PTERA_MAX_THREADS chunks: 16 bits each below */
_Static_assert(PR_POOL_CHUNKS_PER_THREAD * PTERA_MAX_THREADS <= 0xffffu, "a lane's chunk indices are 16 bits");

/* A thread's home range of the loop in flight: next << 16 | end. */
typedef struct pool_lane {
  _Alignas(64) atomic_uint range;
} pool_lane;

/* What a worker thread is given: its pool and its lane. */
typedef struct pool_worker {
  struct ptera_threadpool *pool;
  size_t lane;
#if defined(__linux__)
  struct timespec moved; /* when it last moved off its caller's CPU */
#endif
} pool_worker;

struct ptera_threadpool {
  const ptera_allocator *allocator;
  size_t nthreads; /* the caller included */
  size_t nstarted; /* workers running */
  pthread_t *threads;
  pool_worker *workers;
  pool_lane *lanes; /* one per thread, the caller's first */
  pthread_mutex_t mu;
  pthread_cond_t wake;     /* workers: a new loop or stop */
  pthread_cond_t finished; /* the caller: the last chunk is done */
  atomic_flag busy;        /* a loop holds the workers */
  atomic_uint gen;         /* bumped once per loop */
  atomic_uint stop;
  atomic_uint done;        /* chunks finished */
  atomic_int caller_cpu;   /* the CPU the caller started the loop in flight on, -1 unknown */
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

/* Takes a chunk from lane l's range, its front or (stealing) its back. */
static int take_chunk(pool_lane *l, int back, unsigned *chunk) {
  unsigned v = atomic_load_explicit(&l->range, memory_order_acquire);
  for (;;) {
    unsigned next = v >> 16, end = v & 0xffffu;
    if (next >= end) return 0;
    unsigned nv = back ? (next << 16 | (end - 1)) : ((next + 1) << 16 | end);
    if (atomic_compare_exchange_weak_explicit(&l->range, &v, nv, memory_order_acq_rel, memory_order_acquire)) {
      *chunk = back ? end - 1 : next;
      return 1;
    }
  }
}

/* Claims and runs chunks, its own lane's first, until none is left. */
static void run_chunks(ptera_threadpool *p, size_t self) {
  size_t lanes = p->nstarted + 1;
  for (;;) {
    unsigned c;
    int got = take_chunk(&p->lanes[self], 0, &c);
    for (size_t k = 1; !got && k < lanes; k++) got = take_chunk(&p->lanes[(self + k) % lanes], 1, &c);
    if (!got) return;
    /* The chunk is ours: the loop cannot change until we report it done. */
    ptera_task_fn fn = p->fn;
    void *arg = p->arg;
    size_t total = p->nchunks, begin = c * p->chunk;
    size_t end = p->n - begin < p->chunk ? p->n : begin + p->chunk;
    fn(arg, begin, end);
    unsigned d = atomic_fetch_add_explicit(&p->done, 1, memory_order_acq_rel) + 1;
    if (d == total && self != 0) {
      pthread_mutex_lock(&p->mu);
      pthread_cond_signal(&p->finished);
      pthread_mutex_unlock(&p->mu);
    }
  }
}

/* The CPU the calling thread runs on, -1 where unknown. */
static int current_cpu(void) {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

/* Off the caller's CPU, if the worker woke there (see the top). */
static void leave_caller_cpu(ptera_threadpool *p, pool_worker *w) {
#if defined(__linux__)
  int cpu = atomic_load_explicit(&p->caller_cpu, memory_order_relaxed);
  if (cpu < 0 || cpu >= CPU_SETSIZE || current_cpu() != cpu) return;
  struct timespec now;
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0 ||
      (int64_t)(now.tv_sec - w->moved.tv_sec) * 1000000000 + (now.tv_nsec - w->moved.tv_nsec) < 1000000)
    return; /* int64_t: a 32-bit long would overflow past 2 s */
  w->moved = now;
  cpu_set_t own, away;
  if (sched_getaffinity(0, sizeof own, &own) != 0) return;
  away = own;
  CPU_CLR(cpu, &away);
  if (CPU_COUNT(&away) > 0 && sched_setaffinity(0, sizeof away, &away) == 0) sched_setaffinity(0, sizeof own, &own);
#else
  (void)p;
  (void)w;
#endif
}

static void *worker_main(void *arg) {
  pool_worker *w = arg;
  ptera_threadpool *p = w->pool;
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
    leave_caller_cpu(p, w);
    run_chunks(p, w->lane);
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
  atomic_init(&p->done, 0);
  atomic_init(&p->caller_cpu, -1);
  if (nthreads > 1) {
    p->threads = pt_calloc(a, nthreads - 1, sizeof *p->threads, 16);
    p->workers = pt_calloc(a, nthreads - 1, sizeof *p->workers, 16);
    p->lanes = pt_calloc(a, nthreads, sizeof *p->lanes, 64);
    if (!p->threads || !p->workers || !p->lanes) {
      pt_free(a, p->lanes);
      pt_free(a, p->workers);
      pt_free(a, p->threads);
      pt_free(a, p);
      return PTERA_MEMORY_ALLOCATION_FAILED;
    }
    for (size_t i = 0; i < nthreads; i++) atomic_init(&p->lanes[i].range, 0);
  }
  int inited = pthread_mutex_init(&p->mu, NULL) == 0;
  if (inited == 1) inited += pthread_cond_init(&p->wake, NULL) == 0;
  if (inited == 2) inited += pthread_cond_init(&p->finished, NULL) == 0;
  if (inited < 3) {
    if (inited > 1) pthread_cond_destroy(&p->wake);
    if (inited > 0) pthread_mutex_destroy(&p->mu);
    pt_free(a, p->lanes);
    pt_free(a, p->workers);
    pt_free(a, p->threads);
    pt_free(a, p);
    return PTERA_OUT_OF_RESOURCES;
  }
  for (size_t i = 0; i + 1 < nthreads; i++) {
    p->workers[i] = (pool_worker){.pool = p, .lane = i + 1};
    if (pthread_create(&p->threads[i], NULL, worker_main, &p->workers[i]) != 0) {
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
  pt_free(a, p->lanes);
  pt_free(a, p->workers);
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
  for (size_t t = 0; t < threads; t++) /* thread t's share of the chunks */
    atomic_store_explicit(&p->lanes[t].range, (unsigned)(nchunks * t / threads) << 16 | (unsigned)(nchunks * (t + 1) / threads),
                          memory_order_release);
  atomic_store_explicit(&p->caller_cpu, current_cpu(), memory_order_relaxed);
  atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
  pthread_mutex_lock(&p->mu);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  run_chunks(p, 0);
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

/* The thread pool (threadpool.h): every item of [0, n) is run exactly once,
 * in chunks of at least grain items (the last may be shorter), for many
 * n/grain/thread combinations; n = 0, grain > n, a NULL pool; reuse over
 * many loops; nested and concurrent loops on one pool; workers really take
 * chunks; each thread works its home share first, then takes the others'
 * chunks from their back; destroy with idle (sleeping) workers; allocation
 * failures; on Linux, workers that move off their caller's CPU leave their
 * affinity as it was. */
#if defined(__linux__)
#define _GNU_SOURCE /* pthread_setaffinity_np, cpu_set_t */
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ptera/threadpool.h"

#define MAXN 5000

typedef struct cover {
  atomic_uint hits[MAXN];
  atomic_uint calls, short_chunks, bad;
  size_t n, grain;
} cover;

static void mark(void *arg, size_t begin, size_t end) {
  cover *c = arg;
  atomic_fetch_add(&c->calls, 1);
  if (begin >= end || end > c->n) atomic_fetch_add(&c->bad, 1);
  if (end - begin < c->grain && end != c->n) atomic_fetch_add(&c->short_chunks, 1);
  for (size_t i = begin; i < end && i < MAXN; i++) atomic_fetch_add(&c->hits[i], 1);
}

/* Runs one loop and checks it; returns the number of calls fn got. */
static unsigned run_cover(ptera_threadpool *p, cover *c, size_t n, size_t grain) {
  memset(c, 0, sizeof *c);
  c->n = n;
  c->grain = grain ? grain : 1;
  ptera_threadpool_parallel_for(p, n, grain, mark, c);
  bool once = true;
  for (size_t i = 0; i < n; i++) once &= atomic_load(&c->hits[i]) == 1;
  CHECK(once && atomic_load(&c->bad) == 0 && atomic_load(&c->short_chunks) == 0);
  return atomic_load(&c->calls);
}

static cover cov, cov2;

static void test_coverage(void) {
  static const size_t ns[] = {1, 2, 3, 7, 8, 63, 64, 65, 100, 255, 1000, 4097, MAXN};
  static const size_t grains[] = {0, 1, 2, 3, 16, 64, 999, 4096, 100000};
  for (size_t threads = 1; threads <= 4; threads++) {
    ptera_threadpool *p = NULL;
    CHECK(ptera_threadpool_create(threads, NULL, &p) == PTERA_OK && p);
#ifdef PTERA_HAVE_THREADS
    CHECK(ptera_threadpool_size(p) == threads);
#else
    CHECK(ptera_threadpool_size(p) == 1);
#endif
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
      for (size_t j = 0; j < sizeof grains / sizeof grains[0]; j++) {
        unsigned calls = run_cover(p, &cov, ns[i], grains[j]);
        if (grains[j] >= ns[i] || threads == 1) CHECK(calls == 1); /* inline, whole range */
      }
    CHECK(run_cover(p, &cov, 0, 4) == 0); /* n = 0: fn is not called */
    ptera_threadpool_destroy(p);
  }
  CHECK(ptera_threadpool_size(NULL) == 1);
  CHECK(run_cover(NULL, &cov, 1000, 1) == 1);
  ptera_threadpool_destroy(NULL);
}

/* Reuse: many loops back to back, and after the workers went to sleep. */
static void test_reuse(void) {
  ptera_threadpool *p = NULL;
  CHECK(ptera_threadpool_create(3, NULL, &p) == PTERA_OK);
  int ok = 0;
  for (int k = 0; k < 3000; k++) {
    size_t n = (size_t)(k * 7919 % 3000) + 1;
    memset(&cov, 0, sizeof cov);
    cov.n = n;
    cov.grain = 1;
    ptera_threadpool_parallel_for(p, n, 1, mark, &cov);
    bool once = true;
    for (size_t i = 0; i < n; i++) once &= atomic_load(&cov.hits[i]) == 1;
    ok += once;
    if (k % 1000 == 999) {
      struct timespec ts = {0, 20 * 1000 * 1000}; /* let the workers block */
      nanosleep(&ts, NULL);
    }
  }
  CHECK(ok == 3000);
  ptera_threadpool_destroy(p);
}

/* Workers take chunks: with chunks that sleep, more than one thread runs. */
#ifdef PTERA_HAVE_THREADS
static pthread_t seen_threads[64];
static atomic_uint nseen;
static void record_thread(void *arg, size_t begin, size_t end) {
  (void)arg;
  (void)begin;
  (void)end;
  struct timespec ts = {0, 1000 * 1000};
  nanosleep(&ts, NULL);
  unsigned k = atomic_fetch_add(&nseen, 1);
  if (k < 64) seen_threads[k] = pthread_self();
}

static void test_workers_participate(void) {
  ptera_threadpool *p = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &p) == PTERA_OK);
  bool several = false;
  for (int attempt = 0; attempt < 20 && !several; attempt++) {
    atomic_store(&nseen, 0);
    ptera_threadpool_parallel_for(p, 16, 1, record_thread, NULL);
    unsigned k = atomic_load(&nseen);
    CHECK(k == 16); /* 16 one-item chunks (up to 16 a thread) */
    for (unsigned i = 1; i < k && i < 64; i++)
      if (!pthread_equal(seen_threads[i], seen_threads[0])) several = true;
  }
  CHECK(several);
  ptera_threadpool_destroy(p);
}

/* Home shares: 8 one-item chunks on 2 threads, the caller's first chunk held
 * until the other 7 are done (or 5 s pass). The caller must have taken
 * chunk 0, the front of its share [0, 4); the worker its own share [4, 8)
 * in order, then the caller's remaining chunks from the back: 3, 2, 1. The
 * worker's chunks wait until the caller holds its first (or 5 s pass):
 * where threads run one at a time (valgrind) the worker could otherwise
 * take all eight before the caller ran at all. */
static pthread_t caller_thread;
static atomic_uint order_n, order[8], caller_first;
static void record_order(void *arg, size_t begin, size_t end) {
  (void)arg;
  (void)end;
  if (pthread_equal(pthread_self(), caller_thread)) {
    unsigned expected = 8;
    if (atomic_compare_exchange_strong(&caller_first, &expected, (unsigned)begin)) {
      struct timespec ts = {0, 1000 * 1000};
      for (int i = 0; i < 5000 && atomic_load(&order_n) < 7; i++) nanosleep(&ts, NULL);
    }
    return;
  }
  struct timespec ts = {0, 1000 * 1000};
  for (int i = 0; i < 5000 && atomic_load(&caller_first) == 8; i++) nanosleep(&ts, NULL);
  unsigned k = atomic_fetch_add(&order_n, 1);
  if (k < 8) atomic_store(&order[k], (unsigned)begin);
}

static void test_home_shares(void) {
  ptera_threadpool *p = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &p) == PTERA_OK);
  caller_thread = pthread_self();
  for (int round = 0; round < 3; round++) {
    atomic_store(&order_n, 0);
    atomic_store(&caller_first, 8);
    ptera_threadpool_parallel_for(p, 8, 1, record_order, NULL);
    static const unsigned want[7] = {4, 5, 6, 7, 3, 2, 1};
    CHECK(atomic_load(&caller_first) == 0 && atomic_load(&order_n) == 7);
    for (unsigned i = 0; i < 7; i++) CHECK(atomic_load(&order[i]) == want[i]);
  }
  ptera_threadpool_destroy(p);
}
#else
static void test_workers_participate(void) {}
static void test_home_shares(void) {}
#endif

/* Nested: fn calls parallel_for on the same pool (runs inline). */
typedef struct nest {
  ptera_threadpool *pool;
  atomic_uint inner_items;
} nest;
static void count_items(void *arg, size_t begin, size_t end) {
  atomic_fetch_add(&((nest *)arg)->inner_items, (unsigned)(end - begin));
}
static void outer(void *arg, size_t begin, size_t end) {
  nest *s = arg;
  for (size_t i = begin; i < end; i++) ptera_threadpool_parallel_for(s->pool, 100, 1, count_items, s);
}

static void test_nested(void) {
  nest s;
  CHECK(ptera_threadpool_create(3, NULL, &s.pool) == PTERA_OK);
  atomic_init(&s.inner_items, 0);
  ptera_threadpool_parallel_for(s.pool, 50, 1, outer, &s);
  CHECK(atomic_load(&s.inner_items) == 5000);
  ptera_threadpool_destroy(s.pool);
}

/* Two threads sharing one pool. */
typedef struct user {
  ptera_threadpool *pool;
  cover *c;
  int ok;
} user;
static void *user_main(void *arg) {
  user *u = arg;
  for (int k = 0; k < 300; k++) {
    size_t n = (size_t)(k * 31 % 2000) + 1;
    memset(u->c, 0, sizeof *u->c);
    u->c->n = n;
    u->c->grain = 4;
    ptera_threadpool_parallel_for(u->pool, n, 4, mark, u->c);
    bool once = atomic_load(&u->c->short_chunks) == 0;
    for (size_t i = 0; i < n; i++) once &= atomic_load(&u->c->hits[i]) == 1;
    u->ok += once;
  }
  return NULL;
}

static void test_concurrent(void) {
  ptera_threadpool *p = NULL;
  CHECK(ptera_threadpool_create(3, NULL, &p) == PTERA_OK);
  user a = {p, &cov, 0}, b = {p, &cov2, 0};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, user_main, &a) == 0);
  user_main(&b);
  pthread_join(t, NULL);
  CHECK(a.ok == 300 && b.ok == 300);
  ptera_threadpool_destroy(p);
}

/* Destroy right after create, and with workers asleep. */
static void test_destroy_idle(void) {
  for (int k = 0; k < 20; k++) {
    ptera_threadpool *p = NULL;
    CHECK(ptera_threadpool_create(4, NULL, &p) == PTERA_OK);
    if (k % 4 == 0) {
      struct timespec ts = {0, 5 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
    ptera_threadpool_destroy(p);
  }
  ptera_threadpool *p = NULL;
  CHECK(ptera_threadpool_create(0, NULL, &p) == PTERA_OK && ptera_threadpool_size(p) >= 1);
  run_cover(p, &cov, MAXN, 1);
  ptera_threadpool_destroy(p);
  CHECK(ptera_threadpool_create(2, NULL, NULL) == PTERA_INVALID_ARGUMENT);
}

static long live, fail_at, calls;
static void *fail_alloc(void *ud, size_t size, size_t align) {
  (void)ud;
  if (++calls == fail_at) return NULL;
  void *q = NULL;
  if (posix_memalign(&q, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) != 0)
    return NULL;
  live++;
  return q;
}
static void fail_free(void *ud, void *q) {
  (void)ud;
  if (q) live--;
  free(q);
}

static void test_alloc_failures(void) {
  ptera_allocator a = {fail_alloc, fail_free, NULL};
  for (fail_at = 1;; fail_at++) {
    calls = live = 0;
    ptera_threadpool *p = NULL;
    ptera_status st = ptera_threadpool_create(3, &a, &p);
    if (st == PTERA_OK) {
      run_cover(p, &cov, 100, 1);
      ptera_threadpool_destroy(p);
      CHECK(live == 0);
      break;
    }
    CHECK(st == PTERA_MEMORY_ALLOCATION_FAILED && p == NULL && live == 0);
  }
}

#if defined(PTERA_HAVE_THREADS) && defined(__linux__)
static void spin_items(void *arg, size_t begin, size_t end) {
  atomic_uint *sink = arg;
  for (size_t i = begin; i < end; i++)
    for (unsigned k = 0; k < 2000; k++) atomic_fetch_add_explicit(sink, k, memory_order_relaxed);
}

/* Every thread's allowed CPUs, as /proc lists them, equal the process's. */
static bool affinities_equal(const char *want) {
  char path[300], line[256];
  bool same = true;
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  if (!d) return false;
  for (struct dirent *e; same && (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    n++;
    while (fgets(line, sizeof line, f))
      if (strncmp(line, "Cpus_allowed_list:", 18) == 0 && strcmp(line, want) != 0) same = false;
    fclose(f);
  }
  closedir(d);
  return same && n >= 3; /* the caller and the pool's two workers at least */
}

/* The caller pinned to one CPU of two or more, loops of work on 3 threads:
 * workers woken on the caller's CPU move off it, and afterwards every
 * thread's allowed CPUs are still the process's. */
static void test_affinity_kept(void) {
  cpu_set_t own;
  if (sched_getaffinity(0, sizeof own, &own) != 0 || CPU_COUNT(&own) < 2) {
    printf("threadpool: one CPU allowed: affinity check not applicable\n");
    return;
  }
  char want[256] = "";
  FILE *f = fopen("/proc/self/status", "r");
  CHECK(f != NULL);
  if (!f) return;
  char line[256];
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "Cpus_allowed_list:", 18) == 0) strcpy(want, line);
  fclose(f);
  CHECK(want[0] != 0);
  ptera_threadpool *p = NULL;
  CHECK(ptera_threadpool_create(3, NULL, &p) == PTERA_OK);
  int first = -1;
  for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
    if (CPU_ISSET(c, &own)) first = c;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  CHECK(pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0);
  static atomic_uint sink;
  for (int loop = 0; loop < 300; loop++) {
    ptera_threadpool_parallel_for(p, 64, 1, spin_items, &sink);
    if (loop % 50 == 0) {
      struct timespec ts = {0, 3 * 1000 * 1000}; /* the workers go to sleep, then wake again */
      nanosleep(&ts, NULL);
    }
  }
  CHECK(pthread_setaffinity_np(pthread_self(), sizeof own, &own) == 0);
  CHECK(affinities_equal(want));
  ptera_threadpool_destroy(p);
}
#else
static void test_affinity_kept(void) {}
#endif

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  test_coverage();
  test_reuse();
  test_workers_participate();
  test_home_shares();
  test_nested();
  test_concurrent();
  test_destroy_idle();
  test_alloc_failures();
  test_affinity_kept();
  return check_summary("threadpool");
}

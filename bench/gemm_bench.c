/* gemm_bench: throughput of the f32 GEMM layer (kernels/cpu/gemm.h) on this
 * machine, for 1 and 2 threads (or argv[1] = max threads): a register-only
 * FMA peak loop for the selected ISA, SGEMM 512³ and 1024³ with B prepacked
 * (GFLOP/s and % of that peak), GEMV 1×4096×4096 (GB/s of packed weights
 * streamed), the same for M = 2..8 rows, and a plain memory-read loop over
 * as many bytes. Each figure is
 * the median of 21 timed runs. PTERA_ISA picks the ISA as for the library.
 * Not a test: nothing is checked here (test_gemm checks the results). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/gemm.h"
#include "cpu/isa.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

enum { RUNS = 21, MAX_THREADS = 64 };

typedef void (*job_fn)(void *arg, size_t t, size_t nthreads);

/* A fixed crew of threads; thread 0 is the caller. */
static struct {
  pthread_t tid[MAX_THREADS];
  pthread_barrier_t start, done;
  size_t n;
  job_fn fn;
  void *arg;
  int quit;
} crew;

static void *crew_main(void *p) {
  size_t t = (size_t)p;
  for (;;) {
    pthread_barrier_wait(&crew.start);
    if (crew.quit) return NULL;
    crew.fn(crew.arg, t, crew.n);
    pthread_barrier_wait(&crew.done);
  }
}

static void crew_start(size_t n) {
  crew.n = n;
  crew.quit = 0;
  pthread_barrier_init(&crew.start, NULL, (unsigned)n);
  pthread_barrier_init(&crew.done, NULL, (unsigned)n);
  for (size_t t = 1; t < n; t++) pthread_create(&crew.tid[t], NULL, crew_main, (void *)t);
}

static void crew_stop(void) {
  crew.quit = 1;
  pthread_barrier_wait(&crew.start);
  for (size_t t = 1; t < crew.n; t++) pthread_join(crew.tid[t], NULL);
  pthread_barrier_destroy(&crew.start);
  pthread_barrier_destroy(&crew.done);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static double best; /* the fastest of the last time_job's runs */
static double cpu;  /* median CPU seconds of the calling thread's share (preemption excluded) */

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Median seconds of RUNS runs of fn on every crew thread (after 2 warm-ups). */
static double time_job(job_fn fn, void *arg) {
  double s[RUNS], c[RUNS];
  crew.fn = fn;
  crew.arg = arg;
  for (int r = -2; r < RUNS; r++) {
    double t0 = now();
    pthread_barrier_wait(&crew.start);
    double c0 = cpu_now();
    fn(arg, 0, crew.n);
    double c1 = cpu_now();
    pthread_barrier_wait(&crew.done);
    if (r >= 0) s[r] = now() - t0, c[r] = c1 - c0;
  }
  qsort(s, RUNS, sizeof s[0], cmp_double);
  qsort(c, RUNS, sizeof c[0], cmp_double);
  cpu = c[RUNS / 2];
  best = s[0];
  return s[RUNS / 2];
}

/* --- FMA peak: independent accumulators only, no memory traffic --------- */
enum { PEAK_ITERS = 1 << 20 };
static volatile float peak_sink;

#if defined(__x86_64__)
__attribute__((target("avx512f"))) static double peak_avx512(void) {
  __m512 acc[16], x = _mm512_set1_ps(0.999999f), y = _mm512_set1_ps(1e-7f);
  for (int i = 0; i < 16; i++) acc[i] = _mm512_set1_ps((float)i);
  for (int n = 0; n < PEAK_ITERS; n++)
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++) acc[i] = _mm512_fmadd_ps(acc[i], x, y);
  __m512 s = acc[0];
  for (int i = 1; i < 16; i++) s = _mm512_add_ps(s, acc[i]);
  peak_sink = _mm512_reduce_add_ps(s);
  return (double)PEAK_ITERS * 16 * 16 * 2;
}

__attribute__((target("avx2,fma"))) static double peak_avx2(void) {
  __m256 acc[12], x = _mm256_set1_ps(0.999999f), y = _mm256_set1_ps(1e-7f);
  for (int i = 0; i < 12; i++) acc[i] = _mm256_set1_ps((float)i);
  for (int n = 0; n < PEAK_ITERS; n++)
#pragma GCC unroll 12
    for (int i = 0; i < 12; i++) acc[i] = _mm256_fmadd_ps(acc[i], x, y);
  __m256 s = acc[0];
  for (int i = 1; i < 12; i++) s = _mm256_add_ps(s, acc[i]);
  float v[8];
  _mm256_storeu_ps(v, s);
  peak_sink = v[0] + v[7];
  return (double)PEAK_ITERS * 12 * 8 * 2;
}
#endif

#if defined(__aarch64__)
static double peak_neon(void) {
  float32x4_t acc[16], x = vdupq_n_f32(0.999999f), y = vdupq_n_f32(1e-7f);
  for (int i = 0; i < 16; i++) acc[i] = vdupq_n_f32((float)i);
  for (int n = 0; n < PEAK_ITERS; n++)
    for (int i = 0; i < 16; i++) acc[i] = vfmaq_f32(y, acc[i], x);
  float32x4_t s = acc[0];
  for (int i = 1; i < 16; i++) s = vaddq_f32(s, acc[i]);
  peak_sink = vgetq_lane_f32(s, 0);
  return (double)PEAK_ITERS * 16 * 4 * 2;
}
#endif

static double peak_scalar(void) {
  float acc[8];
  for (int i = 0; i < 8; i++) acc[i] = (float)i;
  for (int n = 0; n < PEAK_ITERS; n++)
    for (int i = 0; i < 8; i++) acc[i] = fmaf(acc[i], 0.999999f, 1e-7f);
  peak_sink = acc[0] + acc[7];
  return (double)PEAK_ITERS * 8 * 2;
}

static double peak_flops(void) { /* per call, for the selected ISA */
  switch (pk_isa_selected()) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: return peak_avx512();
    case PK_ISA_AVX2: return peak_avx2();
#endif
#if defined(__aarch64__)
    case PK_ISA_NEON: return peak_neon();
#endif
    default: return peak_scalar();
  }
}

static void peak_job(void *arg, size_t t, size_t n) {
  (void)arg, (void)t, (void)n;
  peak_flops();
}

/* --- GEMM / GEMV through the layer ----------------------------------------- */
typedef struct gemm_job {
  pk_gemm_f32_args g;
  void *ws;
} gemm_job;

static void gemm_job_fn(void *arg, size_t t, size_t n) {
  gemm_job *j = arg;
  pk_gemm_f32_run_share(&j->g, j->ws, n, t);
}

static float *random_floats(size_t n) {
  float *x = aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64);
  for (size_t i = 0; i < n; i++) x[i] = (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
  return x;
}

/* Median seconds of C = A·B (A M×K plain, B K×N prepacked). */
static double time_gemm(size_t M, size_t N, size_t K, size_t *packed_bytes) {
  float *a = random_floats(M * K), *b = random_floats(K * N), *c = random_floats(M * N);
  size_t pb_size = pk_gemm_f32_pack_b_size(K, N);
  void *pb = aligned_alloc(64, (pb_size + 63) / 64 * 64);
  pk_gemm_f32_pack_b(K, N, b, N, 1, pb);
  gemm_job j = {{M, N, K, {a, K, 1, NULL}, {NULL, 0, 0, pb}, NULL, NULL, c, N, -INFINITY, INFINITY, false}, NULL};
  size_t ws = pk_gemm_f32_workspace(&j.g, crew.n);
  j.ws = malloc(ws ? ws : 1);
  double s = time_job(gemm_job_fn, &j);
  if (packed_bytes) *packed_bytes = pb_size;
  free(a), free(b), free(c), free(pb), free(j.ws);
  return s;
}

/* --- plain memory read ---------------------------------------------------- */
typedef struct read_job {
  const float *x;
  size_t n;
  float sum[MAX_THREADS];
} read_job;

#if defined(__x86_64__)
__attribute__((target("avx2"))) static float read_avx2(const float *x, size_t n) {
  __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    s0 = _mm256_add_ps(s0, _mm256_load_ps(x + i));
    s1 = _mm256_add_ps(s1, _mm256_load_ps(x + i + 8));
    s2 = _mm256_add_ps(s2, _mm256_load_ps(x + i + 16));
    s3 = _mm256_add_ps(s3, _mm256_load_ps(x + i + 24));
  }
  float v[8];
  _mm256_storeu_ps(v, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
  float s = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
  for (; i < n; i++) s += x[i];
  return s;
}
#endif

static float read_plain(const float *x, size_t n) {
  float s[8] = {0};
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int u = 0; u < 8; u++) s[u] += x[i + u];
  for (; i < n; i++) s[0] += x[i];
  return s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}

static void read_job_fn(void *arg, size_t t, size_t n) {
  read_job *j = arg;
  size_t b = j->n * t / n / 16 * 16, e = t + 1 == n ? j->n : j->n * (t + 1) / n / 16 * 16;
#if defined(__x86_64__)
  if (pk_isa_available(PK_ISA_AVX2)) {
    j->sum[t] = read_avx2(j->x + b, e - b);
    return;
  }
#endif
  j->sum[t] = read_plain(j->x + b, e - b);
}

/* One line: the median wall-clock figure; in brackets the best run's and the
 * one from the median CPU time of thread 0's share (the host may be noisy). */
static void report(const char *what, double units, double median_s, const char *unit) {
  printf("  %-34s %8.1f %-7s [best %.1f, cpu-time %.1f]\n", what, units / median_s * 1e-9, unit,
         units / best * 1e-9, units / cpu * 1e-9);
}

int main(int argc, char **argv) {
  size_t max_threads = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 2;
  if (max_threads < 1 || max_threads > MAX_THREADS) max_threads = 2;
  printf("gemm_bench: ISA %s, median of %d runs\n", pk_isa_name(pk_isa_selected()), RUNS);
  for (size_t nt = 1; nt <= max_threads; nt++) {
    crew_start(nt);
    printf("threads %zu:\n", nt);
    double flops = (double)nt * peak_flops(), s = time_job(peak_job, NULL);
    double peak = flops / s, peak_best = flops / best, peak_cpu = flops / cpu;
    report("FMA peak, registers only", flops, s, "GFLOP/s");
    static const size_t sizes[] = {512, 1024};
    for (size_t i = 0; i < 2; i++) {
      size_t n = sizes[i];
      char what[64];
      snprintf(what, sizeof what, "SGEMM %zu^3, B packed", n);
      double f = 2.0 * (double)n * (double)n * (double)n;
      s = time_gemm(n, n, n, NULL);
      report(what, f, s, "GFLOP/s");
      printf("  %-34s %8.1f %%       [best %.1f %%, cpu-time %.1f %%]\n", "  of the FMA peak", 100.0 * f / s / peak,
             100.0 * f / best / peak_best, 100.0 * f / cpu / peak_cpu);
    }
    size_t wbytes;
    s = time_gemm(1, 4096, 4096, &wbytes);
    report("GEMV 1x4096x4096, packed weights", (double)wbytes, s, "GB/s");
    /* skinny products (a few tokens at once) stream the same weights */
    for (size_t m = 2; m <= 8; m++) {
      char what[64];
      snprintf(what, sizeof what, "GEMM %zux4096x4096, packed weights", m);
      report(what, (double)wbytes, time_gemm(m, 4096, 4096, NULL), "GB/s");
    }
    read_job rj = {random_floats(wbytes / sizeof(float)), wbytes / sizeof(float), {0}};
    s = time_job(read_job_fn, &rj);
    report("memory read loop, same bytes", (double)wbytes, s, "GB/s");
    free((void *)rj.x);
    crew_stop();
  }
  return 0;
}

/* The machine's FP32 FMA peak, measured: every thread runs a register-only
 * loop of independent fused multiply-adds on the widest vectors the CPU has
 * (AVX-512, else AVX2+FMA, else scalar fmaf), chosen at run time.
 *
 *   peak THREADS [SECONDS]   -> {"isa": "avx512", "threads": T, "gflops": G}
 *
 * G = 2 flops x lanes x FMAs / wall time over all threads together: the
 * denominator for GEMM efficiency in bench/report.py. Not part of the
 * library; built by bench/run.sh. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ACC 12 /* independent chains: covers FMA latency x ports on current cores */

/* Twelve accumulators in named variables (an array may live in memory). */
#define DECL12(T, init)                                                          \
  T a0 = init(0), a1 = init(1), a2 = init(2), a3 = init(3), a4 = init(4),       \
    a5 = init(5), a6 = init(6), a7 = init(7), a8 = init(8), a9 = init(9),       \
    a10 = init(10), a11 = init(11)
#define STEP12(F)                                                                \
  a0 = F(a0), a1 = F(a1), a2 = F(a2), a3 = F(a3), a4 = F(a4), a5 = F(a5),       \
  a6 = F(a6), a7 = F(a7), a8 = F(a8), a9 = F(a9), a10 = F(a10), a11 = F(a11)
#define SUM12(ADD)                                                               \
  ADD(ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7))),        \
      ADD(ADD(a8, a9), ADD(a10, a11)))

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define I512(i) _mm512_set1_ps((float)(i))
#define F512(x) _mm512_fmadd_ps(x, m, c)
__attribute__((target("avx512f"))) static float loop_avx512(long iters) {
  __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
  DECL12(__m512, I512);
  for (long n = 0; n < iters; n++) { STEP12(F512); }
  return _mm512_reduce_add_ps(SUM12(_mm512_add_ps));
}
#define I256(i) _mm256_set1_ps((float)(i))
#define F256(x) _mm256_fmadd_ps(x, m, c)
__attribute__((target("avx2,fma"))) static float loop_avx2(long iters) {
  __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
  DECL12(__m256, I256);
  for (long n = 0; n < iters; n++) { STEP12(F256); }
  float out[8];
  _mm256_storeu_ps(out, SUM12(_mm256_add_ps));
  return out[0] + out[1] + out[2] + out[3] + out[4] + out[5] + out[6] + out[7];
}
#endif

#define IF(i) ((float)(i))
#define FF(x) fmaf(x, 0.999999f, 1e-7f)
#define ADDF(x, y) ((x) + (y))
static float loop_scalar(long iters) {
  DECL12(float, IF);
  for (long n = 0; n < iters; n++) { STEP12(FF); }
  return SUM12(ADDF);
}

typedef float (*loop_fn)(long);
static loop_fn loop = loop_scalar;
static int lanes = 1;
static const char *isa = "scalar";
static long iters;
static volatile float sink;

static void *worker(void *arg) {
  (void)arg;
  sink = loop(iters);
  return NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Wall seconds for every thread to run iters iterations. */
static double timed(int threads) {
  pthread_t tid[256];
  double t0 = now();
  for (int i = 1; i < threads; i++) pthread_create(&tid[i], NULL, worker, NULL);
  worker(NULL);
  for (int i = 1; i < threads; i++) pthread_join(tid[i], NULL);
  return now() - t0;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  double seconds = argc > 2 ? atof(argv[2]) : 0.5;
  if (threads < 1 || threads > 256 || !(seconds > 0)) {
    fprintf(stderr, "usage: peak THREADS [SECONDS]\n");
    return 2;
  }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) loop = loop_avx512, lanes = 16, isa = "avx512";
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    loop = loop_avx2, lanes = 8, isa = "avx2";
#endif
  /* Calibrate on one thread to about a tenth of the time, then take the
   * best of three full runs. */
  iters = 1 << 16;
  while (timed(1) < seconds / 10 && iters < (1L << 40)) iters *= 2;
  iters = (long)((double)iters * 10);
  double best = 1e300;
  for (int r = 0; r < 3; r++) {
    double t = timed(threads);
    if (t < best) best = t;
  }
  double flops = 2.0 * lanes * ACC * (double)iters * threads;
  printf("{\"isa\": \"%s\", \"threads\": %d, \"gflops\": %.1f}\n", isa, threads,
         flops / best / 1e9);
  return 0;
}

/* A few rows of A against a B read in place (gemm.h, pk_gemm_f32_rows): a
 * decoder step's one query per head against its KV cache, where the GEMM
 * would pack all of B for one row. Where B's rows are contiguous,
 * c += a[k] * B[k, :] (axpy, each product rounded then added, as the scalar
 * loop); where its columns are, c[j] = a . B[:, j] (dot, reordered in
 * lanes); otherwise a loop over k in order. B's runs are prefetched a few
 * ahead: a cache's rows are strided (one head's slice of each position),
 * read once per step, and out of cache after the weights streamed through. */
#include <string.h>

#include "cpu/gemm.h"
#include "cpu/vmath.h"

#define AHEAD 8u

static void prefetch_run(const float *p, size_t n) {
  for (size_t i = 0; i < n; i += 16) __builtin_prefetch(p + i);
  __builtin_prefetch(p + n - 1);
}

static void rows(const pk_gemm_f32_args *g) {
  const pk_vmath_f32_table *vm = pk_vmath_f32();
  const size_t K = g->K, N = g->N, sk = g->b.s_r, sn = g->b.s_c;
  const float *b = g->b.ptr;
  for (size_t r = 0; r < g->M; r++) {
    const float *a = g->a.ptr + r * g->a.s_r;
    float *c = g->c + r * g->ldc;
    if (sn == 1) {
      memset(c, 0, N * sizeof *c);
      for (size_t k = 0; k < K; k++) {
        if (k + AHEAD < K) prefetch_run(b + (k + AHEAD) * sk, N);
        vm->axpy(N, a[k], b + k * sk, c);
      }
    } else if (sk == 1) {
      for (size_t j = 0; j < N; j++) {
        if (j + AHEAD < N) prefetch_run(b + (j + AHEAD) * sn, K);
        c[j] = vm->dot(K, a, b + j * sn);
      }
    } else {
      for (size_t j = 0; j < N; j++) {
        const float *bj = b + j * sn;
        float acc = 0.0f;
        for (size_t k = 0; k < K; k++) acc += a[k] * bj[k * sk];
        c[j] = acc;
      }
    }
  }
}

typedef struct rows_job {
  const pk_gemm_f32_args *g;
  size_t sa, sb, sc;
} rows_job;

static void rows_task(void *arg, size_t begin, size_t end) {
  const rows_job *j = arg;
  for (size_t i = begin; i < end; i++) {
    pk_gemm_f32_args q = *j->g;
    q.a.ptr += i * j->sa;
    q.b.ptr += i * j->sb;
    q.c += i * j->sc;
    rows(&q);
  }
}

#define GRAIN 16384u /* multiply-adds per task, at least */

void pk_gemm_f32_rows(const pk_gemm_f32_args *g, size_t batches, size_t sa, size_t sb, size_t sc,
                      ptera_kernel_ctx *ctx) {
  rows_job j = {g, sa, sb, sc};
  size_t per = g->M * g->K * g->N;
  ptera_kernel_parallel_for(ctx, batches, per >= GRAIN ? 1 : GRAIN / per, rows_task, &j);
}

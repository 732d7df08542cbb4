/* f32 GEMM row micro-kernel, AVX2 + FMA, 1×16: one row of A (any stride)
 * against a packed B micro-panel, for M = 1 and small M where B streams from
 * memory. k is unrolled by 4 into separate accumulators (8 ymm) to cover the
 * FMA latency; they are summed at the end. */
#include <immintrin.h>

#include "cpu/gemm_ukernel.h"

enum { NV = 2, NR = 8 * NV, KU = 4 };

static __m256i column_mask(size_t nr, size_t v) {
  int left = nr > 8 * v ? (int)(nr - 8 * v) : 0;
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(left), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

void pk_f32_gemm_1x16_avx2(const pk_gemm_f32_tile *t) {
  __m256 acc[KU][NV];
#pragma GCC unroll 4
  for (int u = 0; u < KU; u++)
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) acc[u][v] = _mm256_setzero_ps();
  const float *a = t->a, *b = t->b;
  const size_t as = t->a_stride;
  size_t k = 0;
  for (; k + KU <= t->kc; k += KU, a += KU * as, b += KU * NR) {
#pragma GCC unroll 4
    for (int u = 0; u < KU; u++) {
      __m256 au = _mm256_set1_ps(a[(size_t)u * as]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; v++)
        acc[u][v] = _mm256_fmadd_ps(au, _mm256_loadu_ps(b + u * NR + 8 * v), acc[u][v]);
    }
  }
  for (; k < t->kc; k++, a += as, b += NR) {
    __m256 a0 = _mm256_set1_ps(a[0]);
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) acc[0][v] = _mm256_fmadd_ps(a0, _mm256_loadu_ps(b + 8 * v), acc[0][v]);
  }
  const __m256 lo = _mm256_set1_ps(t->min), hi = _mm256_set1_ps(t->max);
  __m256 bm = _mm256_set1_ps(t->bias_m && !t->load_c ? t->bias_m[0] : 0.0f);
#pragma GCC unroll 4
  for (int v = 0; v < NV; v++) {
    __m256i m = column_mask(t->nr, (size_t)v);
    float *c = t->c + 8 * v;
    __m256 x = _mm256_add_ps(_mm256_add_ps(acc[0][v], acc[1][v]), _mm256_add_ps(acc[2][v], acc[3][v]));
    if (t->load_c)
      x = _mm256_add_ps(x, _mm256_maskload_ps(c, m));
    else if (t->bias_n)
      x = _mm256_add_ps(x, _mm256_add_ps(bm, _mm256_maskload_ps(t->bias_n + 8 * v, m)));
    else
      x = _mm256_add_ps(x, bm);
    if (t->clamp) x = _mm256_min_ps(hi, _mm256_max_ps(lo, x));
    _mm256_maskstore_ps(c, m, x);
  }
}

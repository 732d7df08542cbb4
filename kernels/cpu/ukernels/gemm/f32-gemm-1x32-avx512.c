/* f32 GEMM row micro-kernel, AVX-512F, 1×32: one row of A (any stride)
 * against a packed B micro-panel, for M = 1 and small M where B streams from
 * memory. k is unrolled by 4 into separate accumulators (8 zmm) to cover the
 * FMA latency; they are summed at the end. */
#include <immintrin.h>

#include "cpu/gemm_ukernel.h"

enum { NV = 2, NR = 16 * NV, KU = 4 };

static __mmask16 column_mask(size_t nr, size_t v) {
  size_t left = nr > 16 * v ? nr - 16 * v : 0;
  return left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1u);
}

void pk_f32_gemm_1x32_avx512(const pk_gemm_f32_tile *t) {
  __m512 acc[KU][NV];
#pragma GCC unroll 4
  for (int u = 0; u < KU; u++)
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) acc[u][v] = _mm512_setzero_ps();
  const float *a = t->a, *b = t->b;
  const size_t as = t->a_stride;
  size_t k = 0;
  for (; k + KU <= t->kc; k += KU, a += KU * as, b += KU * NR) {
#pragma GCC unroll 4
    for (int u = 0; u < KU; u++) {
      __m512 au = _mm512_set1_ps(a[(size_t)u * as]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; v++)
        acc[u][v] = _mm512_fmadd_ps(au, _mm512_loadu_ps(b + u * NR + 16 * v), acc[u][v]);
    }
  }
  for (; k < t->kc; k++, a += as, b += NR) {
    __m512 a0 = _mm512_set1_ps(a[0]);
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) acc[0][v] = _mm512_fmadd_ps(a0, _mm512_loadu_ps(b + 16 * v), acc[0][v]);
  }
  const __m512 lo = _mm512_set1_ps(t->min), hi = _mm512_set1_ps(t->max);
  __m512 bm = _mm512_set1_ps(t->bias_m && !t->load_c ? t->bias_m[0] : 0.0f);
#pragma GCC unroll 4
  for (int v = 0; v < NV; v++) {
    __mmask16 m = column_mask(t->nr, (size_t)v);
    float *c = t->c + 16 * v;
    __m512 x = _mm512_add_ps(_mm512_add_ps(acc[0][v], acc[1][v]), _mm512_add_ps(acc[2][v], acc[3][v]));
    if (t->load_c)
      x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(m, c));
    else if (t->bias_n)
      x = _mm512_add_ps(x, _mm512_add_ps(bm, _mm512_maskz_loadu_ps(m, t->bias_n + 16 * v)));
    else
      x = _mm512_add_ps(x, bm);
    if (t->clamp) x = _mm512_min_ps(hi, _mm512_max_ps(lo, x));
    _mm512_mask_storeu_ps(c, m, x);
  }
}

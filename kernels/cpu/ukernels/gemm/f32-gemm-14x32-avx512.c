/* f32 GEMM micro-kernel, AVX-512F, 14×32 tile: 28 zmm accumulators (14 rows
 * × 2 vectors of 16 columns) + 2 for B, one broadcast of A folded into each
 * FMA, so both FMA pipes stay fed from 2 vector loads and 14 broadcasts per
 * step of k. Partial tiles use column masks and row guards (gemm_ukernel.h). */
#include <immintrin.h>

#include "cpu/gemm_ukernel.h"

enum { MR = 14, NV = 2, NR = 16 * NV };

static __mmask16 column_mask(size_t nr, size_t v) {
  size_t left = nr > 16 * v ? nr - 16 * v : 0;
  return left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1u);
}

void pk_f32_gemm_14x32_avx512(const pk_gemm_f32_tile *t) {
  __m512 acc[MR][NV];
#pragma GCC unroll 16
  for (int i = 0; i < MR; i++)
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) acc[i][v] = _mm512_setzero_ps();
  if (t->load_c) /* C comes back from a previous k block, likely out of cache: overlap its load */
    for (size_t i = 0; i < t->mr; i++) {
      _mm_prefetch((const char *)(t->c + i * t->ldc), _MM_HINT_T0);
      _mm_prefetch((const char *)(t->c + i * t->ldc + 16), _MM_HINT_T0);
    }
  const float *a = t->a, *b = t->b;
  for (size_t k = 0; k < t->kc; k++, a += MR, b += NR) {
    __m512 bv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) bv[v] = _mm512_loadu_ps(b + 16 * v);
#pragma GCC unroll 16
    for (int i = 0; i < MR; i++) {
      __m512 ai = _mm512_set1_ps(a[i]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; v++) acc[i][v] = _mm512_fmadd_ps(ai, bv[v], acc[i][v]);
    }
  }
  __mmask16 mask[NV];
  __m512 bias_n[NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; v++) {
    mask[v] = column_mask(t->nr, (size_t)v);
    bias_n[v] = t->bias_n && !t->load_c ? _mm512_maskz_loadu_ps(mask[v], t->bias_n + 16 * v)
                                        : _mm512_setzero_ps();
  }
  const __m512 lo = _mm512_set1_ps(t->min), hi = _mm512_set1_ps(t->max);
#pragma GCC unroll 16
  for (int i = 0; i < MR; i++) {
    if ((size_t)i >= t->mr) break;
    float *c = t->c + (size_t)i * t->ldc;
    __m512 bm = _mm512_set1_ps(t->bias_m && !t->load_c ? t->bias_m[i] : 0.0f);
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) {
      __m512 x = t->load_c ? _mm512_add_ps(acc[i][v], _mm512_maskz_loadu_ps(mask[v], c + 16 * v))
                           : _mm512_add_ps(acc[i][v], _mm512_add_ps(bm, bias_n[v]));
      if (t->clamp) x = _mm512_min_ps(hi, _mm512_max_ps(lo, x));
      _mm512_mask_storeu_ps(c + 16 * v, mask[v], x);
    }
  }
}

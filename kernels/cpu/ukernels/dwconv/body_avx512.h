/* AVX-512 depthwise body: 16 output columns per vector, masked tail; stride
 * 2 loads 32 inputs and keeps the even ones. */
#ifndef PK_UKERNELS_DWCONV_BODY_AVX512_H
#define PK_UKERNELS_DWCONV_BODY_AVX512_H

#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwconv_common.h"

PK_DW_INLINE __mmask16 pk_dw_mask16(size_t n) {
  return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

PK_DW_INLINE void pk_dw_avx512(const float *in, const float *w, float bias, float *out,
                               const pk_dwconv2d_params *p, size_t K, size_t S) {
  size_t lo, hi;
  pk_dw_interior(p, K, S, &lo, &hi);
  __m512 vw[25];
  for (size_t i = 0; i < K * K; i++) vw[i] = _mm512_set1_ps(w[i]);
  const __m512 vb = _mm512_set1_ps(bias), vmin = _mm512_set1_ps(p->min), vmax = _mm512_set1_ps(p->max);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_dw_rows(p, K, S, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    pk_dw_edges(in, w, bias, orow, p, K, S, k0, k1, oy, lo, hi);
    for (size_t ox = lo; ox < hi; ox += 16) {
      size_t n = hi - ox < 16 ? hi - ox : 16;
      __mmask16 m = pk_dw_mask16(n), mlo = pk_dw_mask16(2 * n - 1), mhi = pk_dw_mask16(2 * n > 17 ? 2 * n - 17 : 0);
      __m512 acc = vb;
      for (size_t ky = k0; ky < k1; ky++) {
        const float *r = in + (oy * S + ky - p->pad_t) * p->w + ox * S - p->pad_l;
        for (size_t kx = 0; kx < K; kx++) {
          __m512 v;
          if (S == 1) {
            v = _mm512_maskz_loadu_ps(m, r + kx);
          } else {
            __m512 a = _mm512_maskz_loadu_ps(mlo, r + kx), b = _mm512_maskz_loadu_ps(mhi, r + kx + 16);
            v = _mm512_permutex2var_ps(a, even, b);
          }
          acc = _mm512_fmadd_ps(v, vw[ky * K + kx], acc);
        }
      }
      acc = _mm512_min_ps(_mm512_max_ps(acc, vmin), vmax);
      _mm512_mask_storeu_ps(orow + ox, m, acc);
    }
  }
}

#endif

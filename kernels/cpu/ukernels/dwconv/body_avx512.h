/* AVX-512 depthwise body: 16 output columns per vector from the staged
 * rows, masked last store; stride 2 loads 32 inputs and keeps the even
 * ones. */
#ifndef PK_UKERNELS_DWCONV_BODY_AVX512_H
#define PK_UKERNELS_DWCONV_BODY_AVX512_H

#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwconv_common.h"

PK_DW_INLINE void pk_dw_avx512(const float *in, const float *w, float bias, float *out,
                               const pk_dwconv2d_params *p, size_t K, size_t S) {
  __m512 vw[25];
  for (size_t i = 0; i < K * K; i++) vw[i] = _mm512_set1_ps(w[i]);
  const __m512 vb = _mm512_set1_ps(bias), vmin = _mm512_set1_ps(p->min), vmax = _mm512_set1_ps(p->max);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  size_t next = 0;
  const float *rows[5];
  for (size_t oy = 0; oy < p->oh; oy++) {
    pk_dw_stage(in, p, K, S, oy, &next, rows);
    float *orow = out + oy * p->ow;
    for (size_t ox = 0; ox < p->ow; ox += 16) {
      size_t n = p->ow - ox < 16 ? p->ow - ox : 16;
      __m512 acc[5]; /* one partial sum per kernel row: short dependency chains */
      for (size_t ky = 0; ky < K; ky++) {
        const float *r = rows[ky] + ox * S;
        acc[ky] = ky == 0 ? vb : _mm512_setzero_ps();
        for (size_t kx = 0; kx < K; kx++) {
          __m512 v = _mm512_loadu_ps(r + kx);
          if (S == 2) v = _mm512_permutex2var_ps(v, even, _mm512_loadu_ps(r + kx + 16));
          acc[ky] = _mm512_fmadd_ps(v, vw[ky * K + kx], acc[ky]);
        }
      }
      for (size_t ky = 1; ky < K; ky++) acc[0] = _mm512_add_ps(acc[0], acc[ky]);
      __m512 o = _mm512_min_ps(_mm512_max_ps(acc[0], vmin), vmax);
      _mm512_mask_storeu_ps(orow + ox, (__mmask16)((1u << n) - 1u), o);
    }
  }
}

#endif

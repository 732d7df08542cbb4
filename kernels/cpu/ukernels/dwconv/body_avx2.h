/* AVX2 depthwise body: 8 output columns per vector from the staged rows,
 * masked last store; stride 2 loads 16 inputs and keeps the even ones. */
#ifndef PK_UKERNELS_DWCONV_BODY_AVX2_H
#define PK_UKERNELS_DWCONV_BODY_AVX2_H

#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwconv_common.h"

/* A staged row: whole vectors, then the tail element by element. */
PK_DW_INLINE void pk_dw_copy_avx2(float *dst, const float *src, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, _mm256_loadu_ps(src + i));
  for (; i < n; i++) dst[i] = src[i];
}

PK_DW_INLINE void pk_dw_avx2(const float *in, const float *w, float bias, float *out,
                             const pk_dwconv2d_params *p, size_t K, size_t S) {
  const __m256 vb = _mm256_set1_ps(bias), vmin = _mm256_set1_ps(p->min), vmax = _mm256_set1_ps(p->max);
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  size_t next = 0;
  const float *rows[5];
  for (size_t oy = 0; oy < p->oh; oy++) {
    pk_dw_stage(in, p, K, S, oy, &next, rows, pk_dw_copy_avx2);
    float *orow = out + oy * p->ow;
    for (size_t ox = 0; ox < p->ow; ox += 8) {
      __m256 acc = vb;
      for (size_t ky = 0; ky < K; ky++) {
        const float *r = rows[ky] + ox * S;
        for (size_t kx = 0; kx < K; kx++) {
          __m256 v = _mm256_loadu_ps(r + kx);
          if (S == 2) {
            __m256 b = _mm256_loadu_ps(r + kx + 8);
            v = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(v, b, _MM_SHUFFLE(2, 0, 2, 0))), _MM_SHUFFLE(3, 1, 2, 0)));
          }
          acc = _mm256_fmadd_ps(v, _mm256_set1_ps(w[ky * K + kx]), acc);
        }
      }
      acc = _mm256_min_ps(_mm256_max_ps(acc, vmin), vmax);
      if (p->ow - ox >= 8) {
        _mm256_storeu_ps(orow + ox, acc);
      } else {
        __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(p->ow - ox)), lane);
        _mm256_maskstore_ps(orow + ox, m, acc);
      }
    }
  }
}

#endif

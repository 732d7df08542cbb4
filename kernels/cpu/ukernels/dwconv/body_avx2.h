/* AVX2 depthwise body: 8 output columns per vector while the vector's loads
 * stay inside the row, scalar after; stride 2 loads 16 inputs and keeps the
 * even ones. */
#ifndef PK_UKERNELS_DWCONV_BODY_AVX2_H
#define PK_UKERNELS_DWCONV_BODY_AVX2_H

#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwconv_common.h"

PK_DW_INLINE void pk_dw_avx2(const float *in, const float *w, float bias, float *out,
                             const pk_dwconv2d_params *p, size_t K, size_t S) {
  size_t lo, hi;
  pk_dw_interior(p, K, S, &lo, &hi);
  /* vector blocks [lo, vend): the last load of a block, column (ox + 7) * S
   * - pad_l + K - 1 + (S - 1), must lie in the row */
  size_t vend = lo;
  while (vend + 8 <= hi && (vend + 7) * S + K + S - 2 < p->w + p->pad_l) vend += 8;
  const __m256 vb = _mm256_set1_ps(bias), vmin = _mm256_set1_ps(p->min), vmax = _mm256_set1_ps(p->max);
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_dw_rows(p, K, S, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    pk_dw_edges(in, w, bias, orow, p, K, S, k0, k1, oy, lo, hi);
    for (size_t ox = lo; ox < vend; ox += 8) {
      __m256 acc = vb;
      for (size_t ky = k0; ky < k1; ky++) {
        const float *r = in + (oy * S + ky - p->pad_t) * p->w + ox * S - p->pad_l;
        for (size_t kx = 0; kx < K; kx++) {
          __m256 v;
          if (S == 1) {
            v = _mm256_loadu_ps(r + kx);
          } else {
            __m256 a = _mm256_loadu_ps(r + kx), b = _mm256_loadu_ps(r + kx + 8);
            v = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))), _MM_SHUFFLE(3, 1, 2, 0)));
          }
          acc = _mm256_fmadd_ps(v, _mm256_set1_ps(w[ky * K + kx]), acc);
        }
      }
      acc = _mm256_min_ps(_mm256_max_ps(acc, vmin), vmax);
      _mm256_storeu_ps(orow + ox, acc);
    }
    for (size_t ox = vend; ox < hi; ox++) orow[ox] = pk_dw_pixel(in, w, bias, p, K, S, k0, k1, oy, ox);
  }
}

#endif

/* AVX2 max-pool body: 8 output columns per vector while the loads stay in
 * the row, scalar after; 32-bit indices widened at the store. */
#ifndef PK_UKERNELS_MAXPOOL_AVX2_H
#define PK_UKERNELS_MAXPOOL_AVX2_H

#include <immintrin.h>
#include <math.h>

#include "cpu/ukernels/pool/maxpool_common.h"

PK_MP_INLINE void pk_mp_avx2(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p, size_t S) {
  size_t lo, hi;
  pk_mp_interior(p, S, &lo, &hi);
  size_t span = (p->kw - 1) * p->dw + 1, vend = lo;
  /* the last float a block loads: column (ox + 7) * S - pad_l + span - 1 + (S - 1) */
  while (vend + 8 <= hi && (vend + 7) * S + span + S - 2 < p->w + p->pad_l) vend += 8;
  const __m256i lane = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32((int)S));
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_mp_rows(p, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    int64_t *irow = idx ? idx + oy * p->ow : NULL;
    pk_mp_span(in, orow, irow, p, k0, k1, oy, 0, lo);
    pk_mp_span(in, orow, irow, p, k0, k1, oy, k0 == k1 ? lo : vend, p->ow);
    for (size_t ox = lo; ox < vend && k0 < k1; ox += 8) {
      size_t x0 = ox * S - p->pad_l;
      __m256 best = _mm256_set1_ps(-INFINITY);
      __m256i bi = _mm256_add_epi32(_mm256_set1_epi32((int)((oy * p->sh + k0 * p->dh - p->pad_t) * p->w + x0)), lane);
      for (size_t ky = k0; ky < k1; ky++) {
        size_t y = oy * p->sh + ky * p->dh - p->pad_t;
        const float *r = in + y * p->w + x0;
        for (size_t kx = 0; kx < p->kw; kx++) {
          size_t off = kx * p->dw;
          __m256 v;
          if (S == 1) {
            v = _mm256_loadu_ps(r + off);
          } else {
            __m256 a = _mm256_loadu_ps(r + off), b = _mm256_loadu_ps(r + off + 8);
            v = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))), _MM_SHUFFLE(3, 1, 2, 0)));
          }
          __m256 up = _mm256_or_ps(_mm256_cmp_ps(v, best, _CMP_GT_OQ),
                                   _mm256_and_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q), _mm256_cmp_ps(best, best, _CMP_ORD_Q)));
          best = _mm256_blendv_ps(best, v, up);
          __m256i cur = _mm256_add_epi32(_mm256_set1_epi32((int)(y * p->w + x0 + off)), lane);
          bi = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(bi), _mm256_castsi256_ps(cur), up));
        }
      }
      _mm256_storeu_ps(orow + ox, best);
      if (!irow) continue;
      _mm256_storeu_si256((__m256i *)(irow + ox), _mm256_cvtepi32_epi64(_mm256_castsi256_si128(bi)));
      _mm256_storeu_si256((__m256i *)(irow + ox + 4), _mm256_cvtepi32_epi64(_mm256_extracti128_si256(bi, 1)));
    }
  }
}

#endif

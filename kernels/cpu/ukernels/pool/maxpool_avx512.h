/* AVX-512 max-pool body: 16 output columns per vector (masked tail), 32-bit
 * indices widened at the store; stride 2 keeps the even of 32 inputs. */
#ifndef PK_UKERNELS_MAXPOOL_AVX512_H
#define PK_UKERNELS_MAXPOOL_AVX512_H

#include <immintrin.h>
#include <math.h>

#include "cpu/ukernels/pool/maxpool_common.h"

PK_MP_INLINE __mmask16 pk_mp_mask16(size_t n) {
  return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

PK_MP_INLINE void pk_mp_avx512(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p, size_t S) {
  size_t lo, hi;
  pk_mp_interior(p, S, &lo, &hi);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i lane = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                          _mm512_set1_epi32((int)S));
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_mp_rows(p, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    int64_t *irow = idx + oy * p->ow;
    pk_mp_span(in, orow, irow, p, k0, k1, oy, 0, lo);
    pk_mp_span(in, orow, irow, p, k0, k1, oy, hi, p->ow);
    if (k0 == k1) {
      pk_mp_span(in, orow, irow, p, k0, k1, oy, lo, hi);
      continue;
    }
    for (size_t ox = lo; ox < hi; ox += 16) {
      size_t n = hi - ox < 16 ? hi - ox : 16;
      __mmask16 m = pk_mp_mask16(n), mlo = pk_mp_mask16(2 * n - 1), mhi = pk_mp_mask16(2 * n > 17 ? 2 * n - 17 : 0);
      size_t x0 = ox * S - p->pad_l;
      __m512 best = _mm512_set1_ps(-INFINITY);
      __m512i bi = _mm512_add_epi32(_mm512_set1_epi32((int)((oy * p->sh + k0 * p->dh - p->pad_t) * p->w + x0)), lane);
      for (size_t ky = k0; ky < k1; ky++) {
        size_t y = oy * p->sh + ky * p->dh - p->pad_t;
        const float *r = in + y * p->w + x0;
        for (size_t kx = 0; kx < p->kw; kx++) {
          size_t off = kx * p->dw;
          __m512 v;
          if (S == 1) {
            v = _mm512_maskz_loadu_ps(m, r + off);
          } else {
            __m512 a = _mm512_maskz_loadu_ps(mlo, r + off), b = _mm512_maskz_loadu_ps(mhi, r + off + 16);
            v = _mm512_permutex2var_ps(a, even, b);
          }
          __mmask16 up = _mm512_cmp_ps_mask(v, best, _CMP_GT_OQ) |
                         (_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q) & _mm512_cmp_ps_mask(best, best, _CMP_ORD_Q));
          best = _mm512_mask_mov_ps(best, up, v);
          bi = _mm512_mask_mov_epi32(bi, up, _mm512_add_epi32(_mm512_set1_epi32((int)(y * p->w + x0 + off)), lane));
        }
      }
      _mm512_mask_storeu_ps(orow + ox, m, best);
      _mm512_mask_storeu_epi64(irow + ox, (__mmask8)(m & 0xff), _mm512_cvtepi32_epi64(_mm512_castsi512_si256(bi)));
      _mm512_mask_storeu_epi64(irow + ox + 8, (__mmask8)(m >> 8),
                               _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(bi, 1)));
    }
  }
}

#endif

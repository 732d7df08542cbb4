/* AVX-512 depthwise body: 16 output columns per vector from the staged
 * rows, masked last store; stride 2 loads 32 inputs and keeps the even
 * ones. Planes whose output rows fit one vector skip the staging. */
#ifndef PK_UKERNELS_DWCONV_BODY_AVX512_H
#define PK_UKERNELS_DWCONV_BODY_AVX512_H

#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwconv_common.h"

/* A staged row: whole vectors, the last one masked. */
PK_DW_INLINE void pk_dw_copy_avx512(float *dst, const float *src, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, _mm512_loadu_ps(src + i));
  if (i < n) {
    __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(dst + i, m, _mm512_maskz_loadu_ps(m, src + i));
  }
}

/* The 16 outputs from column ox of the output row whose staged rows are
 * `rows`, before the clamp: one partial sum per kernel row (short chains). */
PK_DW_INLINE __m512 pk_dw_vec_avx512(const float *const *rows, size_t ox, const __m512 *vw, __m512 vb, size_t K,
                                     size_t S, __m512i even) {
  __m512 acc[5];
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
  return acc[0];
}

/* Lanes [lo, hi) of 16 (clipped to 0 .. 16). */
PK_DW_INLINE __mmask16 pk_dw_lanes_avx512(ptrdiff_t lo, ptrdiff_t hi) {
  lo = lo < 0 ? 0 : lo > 16 ? 16 : lo;
  hi = hi < lo ? lo : hi > 16 ? 16 : hi;
  return (__mmask16)(((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

/* Output rows of one vector (ow <= 16): nothing staged. Tap kx's columns
 * come from a masked load of the input row itself, from column kx - pad_l
 * (16 of them at stride 1, 32 of them at stride 2 and the even ones kept);
 * lanes outside the row read nothing and are zero, the padding. */
PK_DW_INLINE void pk_dw_narrow_avx512(const float *in, const __m512 *vw, __m512 vb, __m512 vmin, __m512 vmax,
                                      __m512i even, float *out, const pk_dwconv2d_params *p, size_t K, size_t S) {
  const ptrdiff_t W = (ptrdiff_t)p->w, pl = (ptrdiff_t)p->pad_l;
  __mmask16 lo[5], hi[5]; /* tap kx: lanes 0..15 and (stride 2) 16..31 that lie in the row */
  for (size_t kx = 0; kx < K; kx++) {
    ptrdiff_t first = pl - (ptrdiff_t)kx, end = W + pl - (ptrdiff_t)kx; /* load lanes in the row */
    lo[kx] = pk_dw_lanes_avx512(first, end);
    hi[kx] = pk_dw_lanes_avx512(first - 16, end - 16);
  }
  const __mmask16 om = (__mmask16)((1u << p->ow) - 1u);
  for (size_t oy = 0; oy < p->oh; oy++) {
    __m512 acc[5];
    for (size_t ky = 0; ky < K; ky++) {
      ptrdiff_t iy = (ptrdiff_t)(oy * S + ky) - (ptrdiff_t)p->pad_t;
      acc[ky] = ky == 0 ? vb : _mm512_setzero_ps();
      if (iy < 0 || iy >= (ptrdiff_t)p->h) continue;
      const float *row = in + iy * W;
      for (size_t kx = 0; kx < K; kx++) {
        const float *src = row + ((ptrdiff_t)kx - pl);
        __m512 v = _mm512_maskz_loadu_ps(lo[kx], src);
        if (S == 2) v = _mm512_permutex2var_ps(v, even, _mm512_maskz_loadu_ps(hi[kx], src + 16));
        acc[ky] = _mm512_fmadd_ps(v, vw[ky * K + kx], acc[ky]);
      }
    }
    for (size_t ky = 1; ky < K; ky++) acc[0] = _mm512_add_ps(acc[0], acc[ky]);
    _mm512_mask_storeu_ps(out + oy * p->ow, om, _mm512_min_ps(_mm512_max_ps(acc[0], vmin), vmax));
  }
}

/* Stride 1 runs two output rows at a time (independent chains for planes
 * one or two vectors wide): staging row oy + 1 after oy overwrites only the
 * ring slot of row oy*S - pad_t - 1, which row oy no longer reads. */
PK_DW_INLINE void pk_dw_avx512(const float *in, const float *w, float bias, float *out,
                               const pk_dwconv2d_params *p, size_t K, size_t S) {
  __m512 vw[25];
  for (size_t i = 0; i < K * K; i++) vw[i] = _mm512_set1_ps(w[i]);
  const __m512 vb = _mm512_set1_ps(bias), vmin = _mm512_set1_ps(p->min), vmax = _mm512_set1_ps(p->max);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  if (p->ow <= 16) {
    pk_dw_narrow_avx512(in, vw, vb, vmin, vmax, even, out, p, K, S);
    return;
  }
  size_t next = 0, step = S == 1 ? 2 : 1;
  const float *rows[5], *rows2[5];
  for (size_t oy = 0; oy < p->oh; oy += step) {
    bool two = step == 2 && oy + 1 < p->oh;
    pk_dw_stage(in, p, K, S, oy, &next, rows, pk_dw_copy_avx512);
    if (two) pk_dw_stage(in, p, K, S, oy + 1, &next, rows2, pk_dw_copy_avx512);
    float *orow = out + oy * p->ow;
    for (size_t ox = 0; ox < p->ow; ox += 16) {
      size_t n = p->ow - ox < 16 ? p->ow - ox : 16;
      __mmask16 m = (__mmask16)((1u << n) - 1u);
      __m512 a = pk_dw_vec_avx512(rows, ox, vw, vb, K, S, even);
      if (two) {
        __m512 b = pk_dw_vec_avx512(rows2, ox, vw, vb, K, S, even);
        _mm512_mask_storeu_ps(orow + p->ow + ox, m, _mm512_min_ps(_mm512_max_ps(b, vmin), vmax));
      }
      _mm512_mask_storeu_ps(orow + ox, m, _mm512_min_ps(_mm512_max_ps(a, vmin), vmax));
    }
  }
}

#endif

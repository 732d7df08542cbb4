/* AVX-512 max-pool body: 16 output columns per vector (masked tail), 32-bit
 * indices widened at the store; stride 2 keeps the even of 32 inputs.
 * Without indices a row's edge columns run in vectors too, the taps
 * outside the row read as -inf (a ResNet stem's pool: 297 -> 264 us), and
 * a 3x3 stride-2 window is separable (pk_mp_values_3x3s2). */
#ifndef PK_UKERNELS_MAXPOOL_AVX512_H
#define PK_UKERNELS_MAXPOOL_AVX512_H

#include <immintrin.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu/ukernels/pool/maxpool_common.h"

PK_MP_INLINE __mmask16 pk_mp_mask16(size_t n) {
  return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

/* One tap of 16 outputs whose first reads r (stride S): lanes past the
 * masks (m; mlo, mhi for stride 2's two loads; 0xffff: whole loads) zero. */
PK_MP_INLINE __m512 pk_mp_tap16(const float *r, size_t S, __mmask16 m, __mmask16 mlo, __mmask16 mhi, __m512i even) {
  if (mhi == 0xffff && S == 1) return _mm512_loadu_ps(r);
  if (mhi == 0xffff) return _mm512_permutex2var_ps(_mm512_loadu_ps(r), even, _mm512_loadu_ps(r + 16));
  if (S == 1) return _mm512_maskz_loadu_ps(m, r);
  return _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(mlo, r), even, _mm512_maskz_loadu_ps(mhi, r + 16));
}

/* 16 outputs and their indices (lanes past m not written; ix NULL: values only). */
PK_MP_INLINE void pk_mp_store16(float *o, int64_t *ix, __mmask16 m, __m512 val, __m512i bi) {
  if (!ix) {
    _mm512_mask_storeu_ps(o, m, val);
    return;
  }
  __m512i i0 = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(bi)), i1 = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(bi, 1));
  _mm512_mask_storeu_ps(o, m, val);
  _mm512_mask_storeu_epi64(ix, (__mmask8)(m & 0xff), i0);
  _mm512_mask_storeu_epi64(ix + 8, (__mmask8)(m >> 8), i1);
}

/* The reverse scan's step: where tap v equals the window's maximum best
 * (or, in a NaN lane, is a NaN), it takes the lane's value and index idx. */
PK_MP_INLINE void pk_mp_take(__m512 v, __m512 best, __mmask16 nan, __m512i idx, __m512 *val, __m512i *bi) {
  __mmask16 hit = _mm512_mask_cmp_ps_mask((__mmask16)~nan, v, best, _CMP_EQ_OQ) |
                  _mm512_mask_cmp_ps_mask(nan, v, v, _CMP_UNORD_Q);
  *val = _mm512_mask_mov_ps(*val, hit, v);
  *bi = _mm512_mask_mov_epi32(*bi, hit, idx);
}

/* Lanes of v holding -0: with +0 in the same window the maximum's sign is
 * the first zero's, which the reverse scan finds (the max tree may not). */
PK_MP_INLINE __mmask16 pk_mp_negz(__m512 v) {
  return _mm512_cmpeq_epi32_mask(_mm512_castps_si512(v), _mm512_set1_epi32((int)0x80000000u));
}

/* The 3x3 window (dilation 1, all rows inside) of 16 outputs held in
 * registers: the maximum by a tree, then the taps in reverse order as below. */
PK_MP_INLINE void pk_mp_3x3_16(const float *r, size_t w, size_t S, __mmask16 m, __mmask16 mlo, __mmask16 mhi,
                               __m512i even, __m512i base, bool want_index, __m512 *val, __m512i *bi) {
  __m512 v[9];
  for (int t = 0; t < 9; t++) v[t] = pk_mp_tap16(r + (size_t)(t / 3) * w + (size_t)(t % 3), S, m, mlo, mhi, even);
  __m512 a = _mm512_max_ps(_mm512_max_ps(v[0], v[1]), _mm512_max_ps(v[2], v[3]));
  __m512 b = _mm512_max_ps(_mm512_max_ps(v[4], v[5]), _mm512_max_ps(v[6], v[7]));
  __m512 best = _mm512_max_ps(_mm512_max_ps(a, b), v[8]);
  __mmask16 nan = 0, negz = 0;
  for (int t = 0; t < 9; t++) nan |= _mm512_cmp_ps_mask(v[t], v[t], _CMP_UNORD_Q);
  for (int t = 0; !want_index && t < 9; t++) negz |= pk_mp_negz(v[t]);
  *val = best;
  *bi = base;
  if (!want_index && !nan && !negz) return; /* values only: the maximum is the value */
  for (int t = 8; t >= 0; t--)
    pk_mp_take(v[t], best, nan, _mm512_add_epi32(base, _mm512_set1_epi32((int)((size_t)(t / 3) * w + (size_t)(t % 3)))),
               val, bi);
}

/* One tap of 16 outputs whose first reads row[base] (stride S), the row w
 * floats long: positions outside the row read as -inf (masked loads, the
 * lanes outside never touched). */
PK_MP_INLINE __m512 pk_mp_tap16_fill(const float *row, ptrdiff_t base, size_t w, size_t S, __m512i even) {
  ptrdiff_t lo = -base, hi = (ptrdiff_t)w - base; /* positions j of the load valid for lo <= j < hi */
  uint32_t below = lo <= 0 ? 0u : lo >= 32 ? 0xffffffffu : (1u << lo) - 1u;
  uint32_t upto = hi <= 0 ? 0u : hi >= 32 ? 0xffffffffu : (1u << hi) - 1u;
  uint32_t mk = upto & ~below;
  const __m512 ninf = _mm512_set1_ps(-INFINITY);
  if (S == 1) return _mm512_mask_loadu_ps(ninf, (__mmask16)mk, row + base);
  return _mm512_permutex2var_ps(_mm512_mask_loadu_ps(ninf, (__mmask16)mk, row + base), even,
                                _mm512_mask_loadu_ps(ninf, (__mmask16)(mk >> 16), row + base + 16));
}

/* Tap (y, x) of 16 outputs (x the first output's column): plain loads under
 * the masks (lanes past them zero, not stored), or with taps outside the
 * row read as -inf (fill). */
PK_MP_INLINE __m512 pk_mp_load_tap(const float *in, const pk_maxpool2d_params *p, size_t y, ptrdiff_t x, size_t S,
                                   __mmask16 m, __mmask16 mlo, __mmask16 mhi, __m512i even, bool fill) {
  const float *row = in + y * p->w;
  return fill ? pk_mp_tap16_fill(row, x, p->w, S, even) : pk_mp_tap16(row + x, S, m, mlo, mhi, even);
}

/* The window of 16 outputs over kernel rows [k0, k1) from input row y0 and
 * column x: the maximum by two vmaxps chains (NaN and -0 lanes noted
 * apart), then, where indices are wanted or a lane has a NaN or a -0, the
 * taps in reverse order as below. */
PK_MP_INLINE void pk_mp_window16(const float *in, const pk_maxpool2d_params *p, size_t S, size_t y0, size_t k0,
                                 size_t k1, ptrdiff_t x, __mmask16 m, __mmask16 mlo, __mmask16 mhi, __m512i even,
                                 __m512i lane, bool want_index, bool fill, __m512 *val, __m512i *bi) {
  __m512 acc = _mm512_set1_ps(-INFINITY), other = acc;
  __mmask16 nan = 0, negz = 0;
  for (size_t ky = k0; ky < k1; ky++)
    for (size_t kx = 0; kx < p->kw; kx++) {
      __m512 v = pk_mp_load_tap(in, p, y0 + ky * p->dh, x + (ptrdiff_t)(kx * p->dw), S, m, mlo, mhi, even, fill);
      __m512 next = _mm512_max_ps(v, acc);
      nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
      if (!want_index) negz |= pk_mp_negz(v);
      acc = other; /* alternate the two chains */
      other = next;
    }
  __m512 best = _mm512_max_ps(acc, other);
  *val = best;
  *bi = _mm512_setzero_si512();
  for (size_t ky = k1; ky-- > k0 && (want_index || nan || negz);) { /* values only, else: the maximum */
    size_t y = y0 + ky * p->dh;
    for (size_t kx = p->kw; kx-- > 0;) {
      ptrdiff_t xt = x + (ptrdiff_t)(kx * p->dw);
      pk_mp_take(pk_mp_load_tap(in, p, y, xt, S, m, mlo, mhi, even, fill), best, nan,
                 _mm512_add_epi32(_mm512_set1_epi32((int)((ptrdiff_t)(y * p->w) + xt)), lane), val, bi);
    }
  }
}

/* Values only, output row oy (window rows k0 < k1 inside): the row in
 * vectors of 16 from column 0. Vectors whose taps all lie in the row run
 * the 3x3 body or the plain loads; the others (the edges, the tail) read
 * the taps outside the row as -inf, which leaves the maximum over the taps
 * inside, and its NaN and -0 cases, as they are (every window has a tap
 * inside): no output of the row goes through the one-tap-at-a-time path. */
PK_MP_INLINE void pk_mp_values_row(const float *in, float *orow, const pk_maxpool2d_params *p, size_t S, size_t k0,
                                   size_t k1, size_t oy, __m512i even) {
  size_t y0 = oy * p->sh - p->pad_t; /* read at y0 + ky * dh for ky >= k0 only */
  bool three = p->kh == 3 && p->kw == 3 && p->dh == 1 && p->dw == 1 && k0 == 0 && k1 == 3;
  for (size_t ox = 0; ox < p->ow; ox += 16) {
    size_t n = p->ow - ox < 16 ? p->ow - ox : 16;
    __mmask16 m = pk_mp_mask16(n);
    ptrdiff_t xb = (ptrdiff_t)(ox * S) - (ptrdiff_t)p->pad_l;
    bool inside = n == 16 && xb >= 0 && (size_t)xb + (p->kw - 1) * p->dw + 16 * S <= p->w;
    __m512 val;
    __m512i bi;
    if (inside && three)
      pk_mp_3x3_16(in + y0 * p->w + (size_t)xb, p->w, S, m, 0xffff, 0xffff, even, _mm512_setzero_si512(), false,
                   &val, &bi);
    else
      pk_mp_window16(in, p, S, y0, k0, k1, xb, m, 0, 0, even, _mm512_setzero_si512(), false, true, &val, &bi);
    _mm512_mask_storeu_ps(orow + ox, m, val);
  }
}

/* The 3x3 stride-2 window's row kx = 0, 1, 2 for 16 outputs whose first
 * reads row[x] (row w floats long): its first maximum, by vmaxps with the
 * later tap first (x > y ? x : y keeps the earlier of equal values, so of
 * -0 and +0 the first); *nan: the lanes with a NaN tap (which that order may
 * drop). inside: every tap lies in the row; else those outside read -inf,
 * which leaves the maximum of the taps inside as it is. */
PK_MP_INLINE __m512 pk_mp_row3s2(const float *row, ptrdiff_t x, size_t w, bool inside, __m512i even, __m512i odd,
                                 __mmask16 *nan) {
  __m512 t0, t1, t2;
  if (inside) {
    const float *r = row + x;
    __m512 a = _mm512_loadu_ps(r), b = _mm512_loadu_ps(r + 16);
    t0 = _mm512_permutex2var_ps(a, even, b);
    t1 = _mm512_permutex2var_ps(a, odd, b);
    t2 = _mm512_permutex2var_ps(_mm512_loadu_ps(r + 2), even, _mm512_loadu_ps(r + 18));
  } else {
    t0 = pk_mp_tap16_fill(row, x, w, 2, even);
    t1 = pk_mp_tap16_fill(row, x + 1, w, 2, even);
    t2 = pk_mp_tap16_fill(row, x + 2, w, 2, even);
  }
  *nan = _mm512_cmp_ps_mask(t0, t0, _CMP_UNORD_Q) | _mm512_cmp_ps_mask(t1, t1, _CMP_UNORD_Q) |
         _mm512_cmp_ps_mask(t2, t2, _CMP_UNORD_Q);
  return _mm512_max_ps(t2, _mm512_max_ps(t1, t0));
}

#define PK_MP_ROWS_MAX 1024 /* output columns whose row maxima pk_mp_values_3x3s2 keeps */

/* Values only, 3x3 window, stride 2, dilation 1, ow <= PK_MP_ROWS_MAX:
 * separable on the output rows whose windows lie within the plane's rows.
 * Each input row's maximum over its three taps is worked out once and kept
 * for the next output row, which shares that input row; the output is the
 * first maximum of the three rows' (earlier row on ties), so the first
 * maximum in scan order, -0 against +0 included. The edge columns read the
 * taps outside the row as -inf; a vector with a NaN tap, and the rows whose
 * windows reach the padding above or below, take the general paths. A
 * ResNet stem's pool (64 x 112 x 112, one thread, warm): 305 -> 178 us. */
PK_MP_INLINE void pk_mp_values_3x3s2(const float *in, float *out, const pk_maxpool2d_params *p, __m512i even) {
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  float kept[PK_MP_ROWS_MAX];              /* the row maxima of input row kept_y, per output column */
  __mmask16 kept_nan[PK_MP_ROWS_MAX / 16]; /* and their NaN lanes, per vector */
  size_t kept_y = SIZE_MAX;
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_mp_rows(p, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    if (k0 != 0 || k1 != 3) { /* the window reaches the padding above or below */
      if (k0 < k1) pk_mp_values_row(in, orow, p, 2, k0, k1, oy, even);
      continue;
    }
    size_t y0 = oy * 2 - p->pad_t;
    bool have = kept_y == y0;
    for (size_t ox = 0; ox < p->ow; ox += 16) {
      size_t n = p->ow - ox < 16 ? p->ow - ox : 16;
      __mmask16 m = pk_mp_mask16(n);
      ptrdiff_t xb = (ptrdiff_t)(ox * 2) - (ptrdiff_t)p->pad_l;
      bool inside = n == 16 && xb >= 0 && (size_t)xb + 2 + 32 <= p->w;
      const float *row = in + y0 * p->w;
      __mmask16 n0, n1, n2;
      __m512 h0;
      if (have) {
        h0 = _mm512_loadu_ps(kept + ox);
        n0 = kept_nan[ox / 16];
      } else {
        h0 = pk_mp_row3s2(row, xb, p->w, inside, even, odd, &n0);
      }
      __m512 h1 = pk_mp_row3s2(row + p->w, xb, p->w, inside, even, odd, &n1);
      __m512 h2 = pk_mp_row3s2(row + 2 * p->w, xb, p->w, inside, even, odd, &n2);
      _mm512_storeu_ps(kept + ox, h2);
      kept_nan[ox / 16] = n2;
      __m512 val = _mm512_max_ps(h2, _mm512_max_ps(h1, h0));
      if (n0 | n1 | n2) { /* the first NaN, with its bits */
        __m512i bi;
        pk_mp_window16(in, p, 2, y0, 0, 3, xb, m, 0, 0, even, _mm512_setzero_si512(), false, true, &val, &bi);
      }
      _mm512_mask_storeu_ps(orow + ox, m, val);
    }
    kept_y = y0 + 2;
  }
}

/* Two passes over the window instead of one compare-and-select chain per
 * tap: the maximum (two independent vmaxps chains; NaN lanes noted apart),
 * then the taps in reverse order, each equal to it (or a NaN where the
 * lane has one) taking the lane's index and value, so the first such tap
 * in scan order wins: the first maximum (of -0 and +0, the first), the
 * first NaN with its bits, the first tap when every value is -inf.
 * Without indices (idx NULL) the second pass runs only for the vectors
 * with a NaN or a -0 tap; elsewhere the maximum is the value. */
PK_MP_INLINE void pk_mp_avx512(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p, size_t S) {
  size_t lo, hi;
  pk_mp_interior(p, S, &lo, &hi);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i lane = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                          _mm512_set1_epi32((int)S));
  if (!idx && S == 2 && p->kh == 3 && p->kw == 3 && p->dh == 1 && p->dw == 1 && p->ow <= PK_MP_ROWS_MAX) {
    pk_mp_values_3x3s2(in, out, p, even);
    return;
  }
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_mp_rows(p, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    int64_t *irow = idx ? idx + oy * p->ow : NULL;
    if (!irow && k0 < k1) {
      pk_mp_values_row(in, orow, p, S, k0, k1, oy, even);
      continue;
    }
    pk_mp_span(in, orow, irow, p, k0, k1, oy, 0, lo);
    pk_mp_span(in, orow, irow, p, k0, k1, oy, hi, p->ow);
    if (k0 == k1) {
      pk_mp_span(in, orow, irow, p, k0, k1, oy, lo, hi);
      continue;
    }
    size_t y0 = oy * p->sh - p->pad_t;
    for (size_t ox = lo; ox < hi; ox += 16) {
      size_t n = hi - ox < 16 ? hi - ox : 16;
      __mmask16 m = pk_mp_mask16(n), mlo = pk_mp_mask16(2 * n - 1), mhi = pk_mp_mask16(2 * n > 17 ? 2 * n - 17 : 0);
      size_t x0 = ox * S - p->pad_l;
      if (n == 16 && x0 + (p->kw - 1) * p->dw + 16 * S <= p->w) mlo = mhi = 0xffff; /* every load in the row */
      __m512 val;
      __m512i bi;
      if (p->kh == 3 && p->kw == 3 && p->dh == 1 && p->dw == 1 && k0 == 0 && k1 == 3) {
        pk_mp_3x3_16(in + y0 * p->w + x0, p->w, S, m, mlo, mhi, even,
                     _mm512_add_epi32(_mm512_set1_epi32((int)(y0 * p->w + x0)), lane), irow != NULL, &val, &bi);
        pk_mp_store16(orow + ox, irow ? irow + ox : NULL, m, val, bi);
        continue;
      }
      pk_mp_window16(in, p, S, y0, k0, k1, (ptrdiff_t)x0, m, mlo, mhi, even, lane, irow != NULL, false, &val, &bi);
      pk_mp_store16(orow + ox, irow ? irow + ox : NULL, m, val, bi);
    }
  }
}

#endif

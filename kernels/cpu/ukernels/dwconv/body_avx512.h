/* AVX-512 depthwise body: 16 output columns per vector. Every load of a
 * staged row is a whole vector from a column that is a multiple of 16 (no
 * load splits a cache line); the K taps of a row come from lane shifts of
 * those vectors: valignd at stride 1, the even and odd lanes of two vectors
 * (vpermt2ps) at stride 2. Planes whose input rows fit one vector (two at
 * stride 2) skip the staging: masked loads straight from the input rows. */
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

/* Lanes a and b shifted down by n lanes (n a constant): lane i is a[i + n],
 * or b[i + n - 16] past the end of a. */
#define PK_DW_ALIGNR(b, a, n) \
  _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(b), _mm512_castps_si512(a), n))

/* Lane-index vectors of the stride-2 taps: the even and odd lanes of two
 * vectors, and the even / odd lanes moved down one (two) lanes with the
 * next vector's lanes 0, 1, 2 filling the top. */
typedef struct pk_dw_idx_avx512 {
  __m512i even, odd, even1, odd1, even2;
} pk_dw_idx_avx512;

PK_DW_INLINE pk_dw_idx_avx512 pk_dw_idx_init_avx512(void) {
  pk_dw_idx_avx512 x;
  x.even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  x.odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  x.even1 = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
  x.odd1 = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17);
  x.even2 = _mm512_setr_epi32(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18);
  return x;
}

/* t[kx], kx < K: the inputs tap kx multiplies for 16 outputs, read from the
 * staged row at r = row + ox*S (16 + 16*S floats there are in the row). */
PK_DW_INLINE void pk_dw_taps_avx512(const float *r, size_t K, size_t S, const pk_dw_idx_avx512 *x, __m512 *t) {
  if (S == 1) {
    __m512 a = _mm512_loadu_ps(r), b = _mm512_loadu_ps(r + 16);
    t[0] = a;
    t[1] = PK_DW_ALIGNR(b, a, 1);
    t[2] = PK_DW_ALIGNR(b, a, 2);
    if (K == 5) {
      t[3] = PK_DW_ALIGNR(b, a, 3);
      t[4] = PK_DW_ALIGNR(b, a, 4);
    }
  } else {
    __m512 a = _mm512_loadu_ps(r), b = _mm512_loadu_ps(r + 16), c = _mm512_loadu_ps(r + 32);
    t[0] = _mm512_permutex2var_ps(a, x->even, b);
    t[1] = _mm512_permutex2var_ps(a, x->odd, b);
    t[2] = _mm512_permutex2var_ps(t[0], x->even1, c);
    if (K == 5) {
      t[3] = _mm512_permutex2var_ps(t[1], x->odd1, c);
      t[4] = _mm512_permutex2var_ps(t[0], x->even2, c);
    }
  }
}

/* acc += the K taps of one row times that row of the filter. */
PK_DW_INLINE __m512 pk_dw_row_avx512(const __m512 *t, const __m512 *vw, size_t K, __m512 acc) {
  for (size_t kx = 0; kx < K; kx++) acc = _mm512_fmadd_ps(t[kx], vw[kx], acc);
  return acc;
}

PK_DW_INLINE void pk_dw_store_avx512(float *dst, __mmask16 m, __m512 v, __m512 vmin, __m512 vmax) {
  v = _mm512_min_ps(_mm512_max_ps(v, vmin), vmax);
  if (m == 0xffff)
    _mm512_storeu_ps(dst, v);
  else
    _mm512_mask_storeu_ps(dst, m, v);
}

/* The taps of the input row kernel row ky of output row oy reads (zero
 * outside the input), for the narrow path below. */
PK_DW_INLINE void pk_dw_narrow_taps_avx512(const float *in, const pk_dwconv2d_params *p, size_t oy, size_t ky,
                                           __mmask16 m0, __mmask16 m1, const __m512i *idx, const __mmask16 *tm,
                                           size_t K, size_t S, __m512 *t) {
  ptrdiff_t iy = (ptrdiff_t)(oy * S + ky) - (ptrdiff_t)p->pad_t;
  if (iy < 0 || iy >= (ptrdiff_t)p->h) {
    for (size_t kx = 0; kx < K; kx++) t[kx] = _mm512_setzero_ps();
    return;
  }
  const float *row = in + iy * (ptrdiff_t)p->w;
  __m512 v0 = _mm512_maskz_loadu_ps(m0, row);
  __m512 v1 = S == 1 ? v0 : _mm512_maskz_loadu_ps(m1, row + 16);
  for (size_t kx = 0; kx < K; kx++)
    t[kx] = S == 1 ? _mm512_maskz_permutexvar_ps(tm[kx], idx[kx], v0)
                   : _mm512_maskz_permutex2var_ps(tm[kx], v0, idx[kx], v1);
}

/* Planes whose output rows fit one vector and input rows S: nothing staged.
 * Tap kx's lane i is input column i*S + kx - pad_l, taken by a masked lane
 * permute from the row's one or two masked loads; columns outside the row
 * are zero lanes, the padding. The taps of a row are worked out once and
 * kept for the K output rows that read it (the last K rows' taps roll down
 * S rows per output row). */
PK_DW_INLINE void pk_dw_narrow_avx512(const float *in, const __m512 *vw, __m512 vb, __m512 vmin, __m512 vmax,
                                      float *out, const pk_dwconv2d_params *p, size_t K, size_t S) {
  const ptrdiff_t W = (ptrdiff_t)p->w;
  const __mmask16 m0 = (__mmask16)(W >= 16 ? 0xffffu : (1u << W) - 1u);
  const __mmask16 m1 = (__mmask16)(W <= 16 ? 0u : (1u << (W - 16)) - 1u);
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i col0 = S == 1 ? lane : _mm512_add_epi32(lane, lane), vw_end = _mm512_set1_epi32((int)W);
  __m512i idx[5];
  __mmask16 tm[5];
  for (size_t kx = 0; kx < K; kx++) {
    idx[kx] = _mm512_add_epi32(col0, _mm512_set1_epi32((int)kx - (int)p->pad_l));
    tm[kx] = _mm512_cmpge_epi32_mask(idx[kx], _mm512_setzero_si512()) & _mm512_cmplt_epi32_mask(idx[kx], vw_end);
  }
  const __mmask16 om = (__mmask16)((1u << p->ow) - 1u);
  if (p->oh == 0) return;
  __m512 t[5][5];
  for (size_t ky = 0; ky < K; ky++) pk_dw_narrow_taps_avx512(in, p, 0, ky, m0, m1, idx, tm, K, S, t[ky]);
  for (size_t oy = 0;; oy++) {
    __m512 acc[5];
    for (size_t ky = 0; ky < K; ky++) acc[ky] = pk_dw_row_avx512(t[ky], vw + ky * K, K, ky == 0 ? vb : _mm512_setzero_ps());
    for (size_t ky = 1; ky < K; ky++) acc[0] = _mm512_add_ps(acc[0], acc[ky]);
    pk_dw_store_avx512(out + oy * p->ow, om, acc[0], vmin, vmax);
    if (oy + 1 == p->oh) break;
    for (size_t ky = 0; ky + S < K; ky++)
      for (size_t kx = 0; kx < K; kx++) t[ky][kx] = t[ky + S][kx];
    for (size_t ky = K - S; ky < K; ky++) pk_dw_narrow_taps_avx512(in, p, oy + 1, ky, m0, m1, idx, tm, K, S, t[ky]);
  }
}

/* Stride 1 runs two output rows at a time: the K + 1 staged rows they read
 * give their taps once to both (staging row oy + 1 after oy overwrites only
 * the ring slot of row oy*S - pad_t - 1, which row oy no longer reads). One
 * partial sum per kernel row keeps the chains short. */
PK_DW_INLINE void pk_dw_avx512(const float *in, const float *w, float bias, float *out,
                               const pk_dwconv2d_params *p, size_t K, size_t S) {
  __m512 vw[25];
  for (size_t i = 0; i < K * K; i++) vw[i] = _mm512_set1_ps(w[i]);
  const __m512 vb = _mm512_set1_ps(bias), vmin = _mm512_set1_ps(p->min), vmax = _mm512_set1_ps(p->max);
  if (pk_dwconv2d_unstaged_avx512(S, p->w, p->ow)) {
    pk_dw_narrow_avx512(in, vw, vb, vmin, vmax, out, p, K, S);
    return;
  }
  const pk_dw_idx_avx512 x = pk_dw_idx_init_avx512();
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
      __m512 t[5], a[5], b[5];
      for (size_t ky = 0; ky < K; ky++) {
        pk_dw_taps_avx512(rows[ky] + ox * S, K, S, &x, t);
        a[ky] = pk_dw_row_avx512(t, vw + ky * K, K, ky == 0 ? vb : _mm512_setzero_ps());
        if (two && ky > 0) b[ky - 1] = pk_dw_row_avx512(t, vw + (ky - 1) * K, K, ky == 1 ? vb : _mm512_setzero_ps());
      }
      for (size_t ky = 1; ky < K; ky++) a[0] = _mm512_add_ps(a[0], a[ky]);
      pk_dw_store_avx512(orow + ox, m, a[0], vmin, vmax);
      if (two) {
        pk_dw_taps_avx512(rows2[K - 1] + ox * S, K, S, &x, t);
        b[K - 1] = pk_dw_row_avx512(t, vw + (K - 1) * K, K, _mm512_setzero_ps());
        for (size_t ky = 1; ky < K; ky++) b[0] = _mm512_add_ps(b[0], b[ky]);
        pk_dw_store_avx512(orow + p->ow + ox, m, b[0], vmin, vmax);
      }
    }
  }
}

#endif

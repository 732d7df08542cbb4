/* f32 depthwise, channels last, one output row, AVX-512: 16 channels a
 * vector, masked tail (see dwconv_nhwc.h). A 3x3 kernel keeps a channel
 * block's nine filter vectors and bias in registers across the row (the
 * block outer, the output columns inner, taps outside the input skipped
 * by range); other extents load each filter vector per tap. */
#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwconv_nhwc.h"

static __mmask16 lanes(size_t n) { return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u); }

/* The taps [*k0, *k1) of a 3-tap row at output column ox inside the input. */
static void taps3(const pk_dwconv_nhwc_row *p, size_t ox, size_t *k0, size_t *k1) {
  size_t x = ox * p->stride, lo = 0, hi = 3;
  while (lo < 3 && x + lo * p->dil < p->pad_l) lo++;
  while (hi > lo && x + (hi - 1) * p->dil >= p->pad_l + p->iw) hi--;
  *k0 = lo;
  *k1 = hi;
}

static void dw3x3(const pk_dwconv_nhwc_row *p, float *out) {
  size_t C = p->C;
  const float *rows[3];
  for (size_t ky = 0; ky < 3; ky++) rows[ky] = pk_dw_nhwc_row(p, ky);
  const __m512 vmin = _mm512_set1_ps(p->min), vmax = _mm512_set1_ps(p->max);
  for (size_t c = 0; c < C; c += 16) {
    __mmask16 m = lanes(C - c);
    __m512 w[9];
    for (size_t t = 0; t < 9; t++) w[t] = _mm512_maskz_loadu_ps(m, p->w + t * C + c);
    __m512 b = p->bias ? _mm512_maskz_loadu_ps(m, p->bias + c) : _mm512_setzero_ps();
    for (size_t ox = 0; ox < p->ow; ox++) {
      size_t k0, k1;
      taps3(p, ox, &k0, &k1);
      __m512 acc[3] = {b, _mm512_setzero_ps(), _mm512_setzero_ps()}; /* one chain per tap row */
      for (size_t ky = 0; ky < 3; ky++) {
        if (!rows[ky]) continue;
        for (size_t kx = k0; kx < k1; kx++) { /* taps inside the row: the column is at least pad_l */
          const float *x = rows[ky] + (ox * p->stride + kx * p->dil - p->pad_l) * C + c;
          acc[ky] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x), w[ky * 3 + kx], acc[ky]);
        }
      }
      __m512 v = _mm512_add_ps(_mm512_add_ps(acc[0], acc[1]), acc[2]);
      _mm512_mask_storeu_ps(out + ox * C + c, m, _mm512_min_ps(_mm512_max_ps(v, vmin), vmax));
    }
  }
}

void pk_f32_dwconv_nhwc_avx512(const pk_dwconv_nhwc_row *p, float *out) {
  if (p->kh == 3 && p->kw == 3) {
    dw3x3(p, out);
    return;
  }
  size_t C = p->C;
  const __m512 vmin = _mm512_set1_ps(p->min), vmax = _mm512_set1_ps(p->max);
  for (size_t ox = 0; ox < p->ow; ox++, out += C) {
    for (size_t c = 0; c < C; c += 16) {
      __mmask16 m = lanes(C - c);
      __m512 acc = p->bias ? _mm512_maskz_loadu_ps(m, p->bias + c) : _mm512_setzero_ps();
      for (size_t ky = 0; ky < p->kh; ky++) {
        const float *row = pk_dw_nhwc_row(p, ky);
        if (!row) continue;
        for (size_t kx = 0, ix; kx < p->kw; kx++) {
          if (!pk_dw_nhwc_col(p, ox, kx, &ix)) continue;
          __m512 x = _mm512_maskz_loadu_ps(m, row + ix * C + c);
          __m512 w = _mm512_maskz_loadu_ps(m, p->w + (ky * p->kw + kx) * C + c);
          acc = _mm512_fmadd_ps(x, w, acc);
        }
      }
      _mm512_mask_storeu_ps(out + c, m, _mm512_min_ps(_mm512_max_ps(acc, vmin), vmax));
    }
  }
}

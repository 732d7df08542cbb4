/* f32 depthwise, channels last, one output row, AVX-512: 16 channels a
 * vector, masked tail (see dwconv_nhwc.h). */
#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwconv_nhwc.h"

void pk_f32_dwconv_nhwc_avx512(const pk_dwconv_nhwc_row *p, float *out) {
  size_t C = p->C;
  const __m512 vmin = _mm512_set1_ps(p->min), vmax = _mm512_set1_ps(p->max);
  for (size_t ox = 0; ox < p->ow; ox++, out += C) {
    for (size_t c = 0; c < C; c += 16) {
      __mmask16 m = C - c >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (C - c)) - 1u);
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

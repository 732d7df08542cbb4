/* f32 depthwise, channels last, one output row, AVX2+FMA: 8 channels a
 * vector, masked tail (see dwconv_nhwc.h). */
#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwconv_nhwc.h"

void pk_f32_dwconv_nhwc_avx2(const pk_dwconv_nhwc_row *p, float *out) {
  size_t C = p->C;
  const __m256 vmin = _mm256_set1_ps(p->min), vmax = _mm256_set1_ps(p->max);
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (size_t ox = 0; ox < p->ow; ox++, out += C) {
    for (size_t c = 0; c < C; c += 8) {
      int n = C - c >= 8 ? 8 : (int)(C - c);
      __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane);
      __m256 acc = p->bias ? _mm256_maskload_ps(p->bias + c, m) : _mm256_setzero_ps();
      for (size_t ky = 0; ky < p->kh; ky++) {
        const float *row = pk_dw_nhwc_row(p, ky);
        if (!row) continue;
        for (size_t kx = 0, ix; kx < p->kw; kx++) {
          if (!pk_dw_nhwc_col(p, ox, kx, &ix)) continue;
          __m256 x = _mm256_maskload_ps(row + ix * C + c, m);
          __m256 w = _mm256_maskload_ps(p->w + (ky * p->kw + kx) * C + c, m);
          acc = _mm256_fmadd_ps(x, w, acc);
        }
      }
      _mm256_maskstore_ps(out + c, m, _mm256_min_ps(_mm256_max_ps(acc, vmin), vmax));
    }
  }
}

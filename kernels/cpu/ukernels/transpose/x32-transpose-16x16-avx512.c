/* 32-bit transpose, AVX-512 (see transpose.h): 16x16 tiles in registers
 * (unpack 32-bit pairs, then 64-bit pairs, then 128-bit lanes twice); an
 * edge tile loads its columns and stores its rows under masks, missing
 * rows read as zeros and never stored. */
#include <immintrin.h>

#include "cpu/ukernels/transpose/transpose.h"

static __mmask16 mask16(size_t n) { return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u); }

/* Tile (i0, j0) of nr rows and nc columns. */
static void tile(const float *s, size_t ss, float *d, size_t ds, size_t nr, size_t nc) {
  __m512 r[16], t[16];
  __mmask16 lm = mask16(nc), sm = mask16(nr);
  for (size_t i = 0; i < 16; i++)
    r[i] = i < nr ? (nc == 16 ? _mm512_loadu_ps(s + i * ss) : _mm512_maskz_loadu_ps(lm, s + i * ss))
                  : _mm512_setzero_ps();
  for (size_t i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (size_t i = 0; i < 16; i += 4) {
    r[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[i]), _mm512_castps_pd(t[i + 2])));
    r[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[i]), _mm512_castps_pd(t[i + 2])));
    r[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[i + 1]), _mm512_castps_pd(t[i + 3])));
    r[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[i + 1]), _mm512_castps_pd(t[i + 3])));
  }
  for (size_t h = 0; h < 16; h += 8)
    for (size_t i = 0; i < 4; i++) {
      t[h + i] = _mm512_shuffle_f32x4(r[h + i], r[h + i + 4], 0x88);
      t[h + i + 4] = _mm512_shuffle_f32x4(r[h + i], r[h + i + 4], 0xdd);
    }
  for (size_t i = 0; i < 8; i++) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xdd);
  }
  for (size_t j = 0; j < nc; j++) {
    if (nr == 16)
      _mm512_storeu_ps(d + j * ds, r[j]);
    else
      _mm512_mask_storeu_ps(d + j * ds, sm, r[j]);
  }
}

void pk_x32_transpose_avx512(const void *src, size_t ss, void *dst, size_t ds, size_t rows, size_t cols) {
  const float *s = src;
  float *d = dst;
  for (size_t i0 = 0; i0 < rows; i0 += 16)
    for (size_t j0 = 0; j0 < cols; j0 += 16)
      tile(s + i0 * ss + j0, ss, d + j0 * ds + i0, ds, rows - i0 < 16 ? rows - i0 : 16,
           cols - j0 < 16 ? cols - j0 : 16);
}

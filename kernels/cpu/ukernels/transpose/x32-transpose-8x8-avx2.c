/* 32-bit transpose, AVX2 (see transpose.h): whole 8x8 tiles in registers
 * (unpack 32-bit pairs, shuffle 64-bit pairs, swap 128-bit halves); the
 * edges scalar (AVX2's masked moves are slow on some cores). */
#include <immintrin.h>

#include "cpu/ukernels/transpose/transpose.h"

static void tile8(const float *s, size_t ss, float *d, size_t ds) {
  __m256 r[8], t[8];
  for (size_t i = 0; i < 8; i++) r[i] = _mm256_loadu_ps(s + i * ss);
  for (size_t i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (size_t i = 0; i < 8; i += 4) {
    r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xee);
    r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xee);
  }
  for (size_t i = 0; i < 4; i++) {
    _mm256_storeu_ps(d + i * ds, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
    _mm256_storeu_ps(d + (i + 4) * ds, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
  }
}

void pk_x32_transpose_avx2(const void *src, size_t ss, void *dst, size_t ds, size_t rows, size_t cols) {
  size_t r8 = rows / 8 * 8, c8 = cols / 8 * 8;
  for (size_t i0 = 0; i0 < r8; i0 += 8)
    for (size_t j0 = 0; j0 < c8; j0 += 8) tile8((const float *)src + i0 * ss + j0, ss, (float *)dst + j0 * ds + i0, ds);
  for (size_t i = 0; i < rows; i++) /* the right edge of every row, then the bottom rows */
    for (size_t j = i < r8 ? c8 : 0; j < cols; j++) pk_x32_transpose_one(src, ss, dst, ds, i, j);
}

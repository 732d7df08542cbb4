/* f32 global average pool (the mean of a plane), AVX2 (see pool.h). */
#include <immintrin.h>

#include "cpu/ukernels/pool/pool.h"

float pk_f32_gavgpool_avx2(const float *x, size_t n) {
  __m256 a = _mm256_setzero_ps(), b = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a = _mm256_add_ps(a, _mm256_loadu_ps(x + i));
    b = _mm256_add_ps(b, _mm256_loadu_ps(x + i + 8));
  }
  a = _mm256_add_ps(a, b);
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  float t = _mm_cvtss_f32(s);
  for (; i < n; i++) t += x[i];
  return t / (float)n;
}

/* int8 dot products, 1 row x 4, AVX2 (see qs8.h): 16 k per step, widened
 * to int16 (a - za fits), pairs multiplied and added into int32 lanes. */
#include <immintrin.h>

#include "cpu/ukernels/gemm_qs8/qs8.h"

static int32_t hsum(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(s);
}

void pk_qs8_dot4_avx2(size_t K, const int8_t *a, int32_t za, const int8_t *b, size_t b_stride, int32_t *dot) {
  __m256i acc[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                    _mm256_setzero_si256()};
  const __m256i vz = _mm256_set1_epi16((int16_t)za);
  size_t k = 0;
  for (; k + 16 <= K; k += 16) {
    __m256i va = _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(a + k))), vz);
    for (size_t j = 0; j < 4; j++) {
      __m256i vb = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(b + j * b_stride + k)));
      acc[j] = _mm256_add_epi32(acc[j], _mm256_madd_epi16(va, vb));
    }
  }
  for (size_t j = 0; j < 4; j++) {
    int32_t s = hsum(acc[j]);
    for (size_t t = k; t < K; t++) s += (a[t] - za) * b[j * b_stride + t];
    dot[j] = s;
  }
}

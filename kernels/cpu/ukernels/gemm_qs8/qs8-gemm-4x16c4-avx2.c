/* qs8 GEMM, 4 rows x 16 channels, AVX2 without dot-product instructions
 * (see qs8.h): per 4 k the 64 filter bytes widened to int16 (4 ymm of 4
 * channels x 4 k), each row's 4 bytes widened and broadcast, vpmaddwd into
 * pair sums; two rows per pass over the panel (16 accumulators would not
 * fit the registers), the pairs added at the end. */
#include <immintrin.h>
#include <string.h>

#include "cpu/ukernels/gemm_qs8/qs8.h"

static inline __m256i row4(const int8_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return _mm256_broadcastq_epi64(_mm_cvtepi8_epi16(_mm_cvtsi32_si128(v)));
}

/* Pair sums of channels 4q..4q+3 (two lanes each) -> 8 channels' totals. */
static inline __m256i fold(__m256i q0, __m256i q1) {
  return _mm256_permute4x64_epi64(_mm256_hadd_epi32(q0, q1), 0xD8);
}

static void two_rows(size_t kc, const int8_t *a0, const int8_t *a1, const int8_t *w, int32_t *c0, int32_t *c1) {
  __m256i s[8];
  for (size_t i = 0; i < 8; i++) s[i] = _mm256_setzero_si256();
  for (size_t k = 0; k < kc; k += 4) {
    const __m128i *pw = (const __m128i *)(const void *)(w + k * PK_QS8_NR);
    __m256i x0 = row4(a0 + k), x1 = row4(a1 + k);
    for (size_t q = 0; q < 4; q++) {
      __m256i wq = _mm256_cvtepi8_epi16(_mm_loadu_si128(pw + q));
      s[q] = _mm256_add_epi32(s[q], _mm256_madd_epi16(wq, x0));
      s[4 + q] = _mm256_add_epi32(s[4 + q], _mm256_madd_epi16(wq, x1));
    }
  }
  _mm256_storeu_si256((__m256i *)(void *)c0, fold(s[0], s[1]));
  _mm256_storeu_si256((__m256i *)(void *)(c0 + 8), fold(s[2], s[3]));
  if (!c1) return;
  _mm256_storeu_si256((__m256i *)(void *)c1, fold(s[4], s[5]));
  _mm256_storeu_si256((__m256i *)(void *)(c1 + 8), fold(s[6], s[7]));
}

void pk_qs8_gemm_4x16c4_avx2(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel, int32_t *c,
                             size_t ldc) {
  for (size_t m = 0; m < mr; m += 2)
    two_rows(kc, a + m * lda, m + 1 < mr ? a + (m + 1) * lda : a + m * lda, panel, c + m * ldc,
             m + 1 < mr ? c + (m + 1) * ldc : NULL);
}

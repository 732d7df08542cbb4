/* qs8 GEMM, 4 rows x 16 channels, AVX-VNNI (VEX vpdpbusd on ymm; see
 * qs8.h and the AVX512-VNNI twin): channels 0-7 and 8-15 in two ymm per row. */
#include <immintrin.h>
#include <string.h>

#include "cpu/ukernels/gemm_qs8/qs8.h"

static inline __m256i row4(const int8_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return _mm256_set1_epi32(v ^ (int32_t)0x80808080u);
}

void pk_qs8_gemm_4x16c4_avxvnni(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel, int32_t *c,
                                size_t ldc) {
  const int8_t *w = panel;
  const int8_t *ar[4];
  ar[0] = a;
  for (size_t m = 1; m < 4; m++) ar[m] = m < mr ? a + m * lda : ar[m - 1];
  const __m256i *ks = (const __m256i *)(const void *)(w + kc * PK_QS8_NR);
  __m256i lo = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_slli_epi32(_mm256_loadu_si256(ks), 7));
  __m256i hi = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_slli_epi32(_mm256_loadu_si256(ks + 1), 7));
  if (mr == 1) { /* one row: two chains over k per half */
    __m256i l0 = lo, h0 = hi, l1 = _mm256_setzero_si256(), h1 = l1;
    size_t k = 0;
    for (; k + 8 <= kc; k += 8) {
      const __m256i *pw = (const __m256i *)(const void *)(w + k * PK_QS8_NR);
      __m256i x0 = row4(a + k), x1 = row4(a + k + 4);
      l0 = _mm256_dpbusd_avx_epi32(l0, x0, _mm256_loadu_si256(pw));
      h0 = _mm256_dpbusd_avx_epi32(h0, x0, _mm256_loadu_si256(pw + 1));
      l1 = _mm256_dpbusd_avx_epi32(l1, x1, _mm256_loadu_si256(pw + 2));
      h1 = _mm256_dpbusd_avx_epi32(h1, x1, _mm256_loadu_si256(pw + 3));
    }
    for (; k < kc; k += 4) {
      const __m256i *pw = (const __m256i *)(const void *)(w + k * PK_QS8_NR);
      __m256i x0 = row4(a + k);
      l0 = _mm256_dpbusd_avx_epi32(l0, x0, _mm256_loadu_si256(pw));
      h0 = _mm256_dpbusd_avx_epi32(h0, x0, _mm256_loadu_si256(pw + 1));
    }
    _mm256_storeu_si256((__m256i *)(void *)c, _mm256_add_epi32(l0, l1));
    _mm256_storeu_si256((__m256i *)(void *)(c + 8), _mm256_add_epi32(h0, h1));
    return;
  }
  __m256i l0 = lo, l1 = lo, l2 = lo, l3 = lo, h0 = hi, h1 = hi, h2 = hi, h3 = hi;
  for (size_t k = 0; k < kc; k += 4) {
    const __m256i *pw = (const __m256i *)(const void *)(w + k * PK_QS8_NR);
    __m256i wl = _mm256_loadu_si256(pw), wh = _mm256_loadu_si256(pw + 1);
    __m256i x0 = row4(ar[0] + k), x1 = row4(ar[1] + k), x2 = row4(ar[2] + k), x3 = row4(ar[3] + k);
    l0 = _mm256_dpbusd_avx_epi32(l0, x0, wl);
    h0 = _mm256_dpbusd_avx_epi32(h0, x0, wh);
    l1 = _mm256_dpbusd_avx_epi32(l1, x1, wl);
    h1 = _mm256_dpbusd_avx_epi32(h1, x1, wh);
    l2 = _mm256_dpbusd_avx_epi32(l2, x2, wl);
    h2 = _mm256_dpbusd_avx_epi32(h2, x2, wh);
    l3 = _mm256_dpbusd_avx_epi32(l3, x3, wl);
    h3 = _mm256_dpbusd_avx_epi32(h3, x3, wh);
  }
  __m256i out[8] = {l0, h0, l1, h1, l2, h2, l3, h3};
  for (size_t m = 0; m < mr; m++) {
    _mm256_storeu_si256((__m256i *)(void *)(c + m * ldc), out[2 * m]);
    _mm256_storeu_si256((__m256i *)(void *)(c + m * ldc + 8), out[2 * m + 1]);
  }
}

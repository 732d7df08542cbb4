/* qs8 GEMM, 4 rows x 16 channels, AVX512-VNNI (see qs8.h): per 4 k one
 * zmm of 16 channels x 4 filter bytes, each row's 4 bytes (+ 128, as u8)
 * broadcast, vpdpbusd into that row's 16 int32 lanes, which start at
 * -128 ksum so the +128 cancels exactly. */
#include <immintrin.h>
#include <string.h>

#include "cpu/ukernels/gemm_qs8/qs8.h"

static inline __m512i row4(const int8_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return _mm512_set1_epi32(v ^ (int32_t)0x80808080u);
}

void pk_qs8_gemm_4x16c4_avx512vnni(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel,
                                   int32_t *c, size_t ldc) {
  const int8_t *w = panel;
  const int8_t *a0 = a, *a1 = mr > 1 ? a + lda : a0, *a2 = mr > 2 ? a + 2 * lda : a1, *a3 = mr > 3 ? a + 3 * lda : a2;
  __m512i init = _mm512_slli_epi32(_mm512_loadu_si512((const void *)(w + kc * PK_QS8_NR)), 7);
  init = _mm512_sub_epi32(_mm512_setzero_si512(), init);
  if (mr == 1) { /* one row: four chains over k, so the adds do not wait on each other */
    __m512i s0 = init, s1 = _mm512_setzero_si512(), s2 = s1, s3 = s1;
    size_t k = 0;
    for (; k + 16 <= kc; k += 16) {
      s0 = _mm512_dpbusd_epi32(s0, row4(a0 + k), _mm512_loadu_si512((const void *)(w + k * PK_QS8_NR)));
      s1 = _mm512_dpbusd_epi32(s1, row4(a0 + k + 4), _mm512_loadu_si512((const void *)(w + (k + 4) * PK_QS8_NR)));
      s2 = _mm512_dpbusd_epi32(s2, row4(a0 + k + 8), _mm512_loadu_si512((const void *)(w + (k + 8) * PK_QS8_NR)));
      s3 = _mm512_dpbusd_epi32(s3, row4(a0 + k + 12), _mm512_loadu_si512((const void *)(w + (k + 12) * PK_QS8_NR)));
    }
    for (; k < kc; k += 4)
      s0 = _mm512_dpbusd_epi32(s0, row4(a0 + k), _mm512_loadu_si512((const void *)(w + k * PK_QS8_NR)));
    _mm512_storeu_si512((void *)c, _mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3)));
    return;
  }
  __m512i c0 = init, c1 = init, c2 = init, c3 = init;
  for (size_t k = 0; k < kc; k += 4) {
    __m512i vw = _mm512_loadu_si512((const void *)(w + k * PK_QS8_NR));
    c0 = _mm512_dpbusd_epi32(c0, row4(a0 + k), vw);
    c1 = _mm512_dpbusd_epi32(c1, row4(a1 + k), vw);
    c2 = _mm512_dpbusd_epi32(c2, row4(a2 + k), vw);
    c3 = _mm512_dpbusd_epi32(c3, row4(a3 + k), vw);
  }
  _mm512_storeu_si512((void *)c, c0);
  if (mr > 1) _mm512_storeu_si512((void *)(c + ldc), c1);
  if (mr > 2) _mm512_storeu_si512((void *)(c + 2 * ldc), c2);
  if (mr > 3) _mm512_storeu_si512((void *)(c + 3 * ldc), c3);
}

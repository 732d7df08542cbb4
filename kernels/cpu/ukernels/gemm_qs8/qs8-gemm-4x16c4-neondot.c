/* qs8 GEMM, 4 rows x 16 channels, AdvSIMD with the dot-product extension
 * (sdot, Armv8.2 DotProd; see qs8.h): per 4 k each int32 lane takes one
 * channel's 4-byte dot with the row's 4 bytes. */
#include <arm_neon.h>
#include <string.h>

#include "cpu/ukernels/gemm_qs8/qs8.h"

static inline int8x16_t row4(const int8_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return vreinterpretq_s8_s32(vdupq_n_s32(v));
}

void pk_qs8_gemm_4x16c4_neondot(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel, int32_t *c,
                                size_t ldc) {
  const int8_t *w = panel;
  const int8_t *ar[4];
  ar[0] = a;
  for (size_t m = 1; m < 4; m++) ar[m] = m < mr ? a + m * lda : ar[m - 1];
  int32x4_t s[4][4];
  for (size_t m = 0; m < 4; m++)
    for (size_t q = 0; q < 4; q++) s[m][q] = vdupq_n_s32(0);
  for (size_t k = 0; k < kc; k += 4) {
    int8x16_t w0 = vld1q_s8(w + k * PK_QS8_NR), w1 = vld1q_s8(w + k * PK_QS8_NR + 16);
    int8x16_t w2 = vld1q_s8(w + k * PK_QS8_NR + 32), w3 = vld1q_s8(w + k * PK_QS8_NR + 48);
    for (size_t m = 0; m < 4; m++) {
      int8x16_t x = row4(ar[m] + k);
      s[m][0] = vdotq_s32(s[m][0], w0, x);
      s[m][1] = vdotq_s32(s[m][1], w1, x);
      s[m][2] = vdotq_s32(s[m][2], w2, x);
      s[m][3] = vdotq_s32(s[m][3], w3, x);
    }
  }
  for (size_t m = 0; m < mr; m++)
    for (size_t q = 0; q < 4; q++) vst1q_s32(c + m * ldc + 4 * q, s[m][q]);
}

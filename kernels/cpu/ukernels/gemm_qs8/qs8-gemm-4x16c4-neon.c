/* qs8 GEMM, 4 rows x 16 channels, AdvSIMD without the dot-product
 * extension (see qs8.h): per 4 k, int8 x int8 widening multiplies of 2
 * channels x 4 k against the row's 4 bytes, pairwise added into int32
 * (vpadal), one row per pass; the pairs folded at the end. */
#include <arm_neon.h>
#include <string.h>

#include "cpu/ukernels/gemm_qs8/qs8.h"

void pk_qs8_gemm_4x16c4_neon(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel, int32_t *c,
                             size_t ldc) {
  const int8_t *w = panel;
  for (size_t m = 0; m < mr; m++) {
    int32x4_t s[8];
    for (size_t i = 0; i < 8; i++) s[i] = vdupq_n_s32(0);
    for (size_t k = 0; k < kc; k += 4) {
      int32_t v;
      memcpy(&v, a + m * lda + k, 4);
      int8x16_t x = vreinterpretq_s8_s32(vdupq_n_s32(v));
      for (size_t q = 0; q < 4; q++) {
        int8x16_t wq = vld1q_s8(w + k * PK_QS8_NR + q * 16);
        s[2 * q] = vpadalq_s16(s[2 * q], vmull_s8(vget_low_s8(wq), vget_low_s8(x)));
        s[2 * q + 1] = vpadalq_s16(s[2 * q + 1], vmull_high_s8(wq, x));
      }
    }
    for (size_t q = 0; q < 4; q++) vst1q_s32(c + m * ldc + 4 * q, vpaddq_s32(s[2 * q], s[2 * q + 1]));
  }
}

/* qs8 GEMM, 4 rows x 16 channels, 4 k per step, scalar (see qs8.h); also
 * the panel packing every variant reads. */
#include <string.h>

#include "cpu/ukernels/gemm_qs8/qs8.h"

void pk_qs8_gemm_4x16c4_scalar(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel, int32_t *c,
                               size_t ldc) {
  const int8_t *w = panel;
  for (size_t m = 0; m < mr; m++) {
    int32_t acc[PK_QS8_NR] = {0};
    const int8_t *am = a + m * lda;
    for (size_t k = 0; k < kc; k += 4)
      for (size_t j = 0; j < PK_QS8_NR; j++)
        for (size_t t = 0; t < 4; t++) acc[j] += (int32_t)am[k + t] * w[k * PK_QS8_NR + j * 4 + t];
    memcpy(c + m * ldc, acc, sizeof acc);
  }
}

void pk_qs8_pack_panel(size_t nc, size_t kn, size_t kc, pk_qs8_wget_fn wget, const void *ctx, void *panel) {
  int8_t *w = panel;
  int32_t ks[PK_QS8_NR] = {0};
  for (size_t k = 0; k < kc; k++)
    for (size_t j = 0; j < PK_QS8_NR; j++) {
      int8_t v = j < nc && k < kn ? wget(ctx, j, k) : 0;
      w[(k / 4) * 4 * PK_QS8_NR + j * 4 + k % 4] = v;
      ks[j] += v;
    }
  memcpy(w + kc * PK_QS8_NR, ks, sizeof ks);
}

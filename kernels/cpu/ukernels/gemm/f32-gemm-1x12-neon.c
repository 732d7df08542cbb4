/* f32 GEMM row micro-kernel, AArch64 AdvSIMD, 1×12: one row of A (any
 * stride) against a packed B micro-panel (M = 1 and small M); k unrolled by
 * 2 into separate accumulators (6 q) to cover the FMA latency. */
#include <arm_neon.h>

#include "cpu/gemm_ukernel.h"

enum { NR = 12 };

void pk_f32_gemm_1x12_neon(const pk_gemm_f32_tile *t) {
  float32x4_t acc[2][3];
  for (int u = 0; u < 2; u++)
    for (int v = 0; v < 3; v++) acc[u][v] = vdupq_n_f32(0.0f);
  const float *a = t->a, *b = t->b;
  const size_t as = t->a_stride;
  size_t k = 0;
  for (; k + 2 <= t->kc; k += 2, a += 2 * as, b += 2 * NR)
    for (int u = 0; u < 2; u++) {
      float32x4_t au = vdupq_n_f32(a[(size_t)u * as]);
      for (int v = 0; v < 3; v++) acc[u][v] = vfmaq_f32(acc[u][v], au, vld1q_f32(b + u * NR + 4 * v));
    }
  for (; k < t->kc; k++, a += as, b += NR) {
    float32x4_t a0 = vdupq_n_f32(a[0]);
    for (int v = 0; v < 3; v++) acc[0][v] = vfmaq_f32(acc[0][v], a0, vld1q_f32(b + 4 * v));
  }
  float row[NR];
  for (int v = 0; v < 3; v++) vst1q_f32(row + 4 * v, vaddq_f32(acc[0][v], acc[1][v]));
  pk_gemm_f32_tile_store(t, row, NR);
}

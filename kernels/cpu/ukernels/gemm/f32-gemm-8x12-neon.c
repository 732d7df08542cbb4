/* f32 GEMM micro-kernel, AArch64 AdvSIMD, 8×12 tile: 24 q accumulators
 * (8 rows × 3 vectors of 4 columns) + 3 for B + 2 holding 8 values of A,
 * each FMA taking its A value by lane. Partial tiles go through a stack tile
 * and the shared epilogue. */
#include <arm_neon.h>

#include "cpu/gemm_ukernel.h"

enum { MR = 8, NR = 12 };

#define PK_ROW(i, av, lane)                                   \
  do {                                                        \
    acc[i][0] = vfmaq_laneq_f32(acc[i][0], b0, av, lane);     \
    acc[i][1] = vfmaq_laneq_f32(acc[i][1], b1, av, lane);     \
    acc[i][2] = vfmaq_laneq_f32(acc[i][2], b2, av, lane);     \
  } while (0)

void pk_f32_gemm_8x12_neon(const pk_gemm_f32_tile *t) {
  float32x4_t acc[MR][3];
  for (int i = 0; i < MR; i++)
    for (int v = 0; v < 3; v++) acc[i][v] = vdupq_n_f32(0.0f);
  const float *a = t->a, *b = t->b;
  for (size_t k = 0; k < t->kc; k++, a += MR, b += t->b_stride) {
    float32x4_t a0 = vld1q_f32(a), a1 = vld1q_f32(a + 4);
    float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4), b2 = vld1q_f32(b + 8);
    PK_ROW(0, a0, 0);
    PK_ROW(1, a0, 1);
    PK_ROW(2, a0, 2);
    PK_ROW(3, a0, 3);
    PK_ROW(4, a1, 0);
    PK_ROW(5, a1, 1);
    PK_ROW(6, a1, 2);
    PK_ROW(7, a1, 3);
  }
  if (t->mr < MR || t->nr < NR) {
    float tile[MR * NR];
    for (int i = 0; i < MR; i++)
      for (int v = 0; v < 3; v++) vst1q_f32(tile + i * NR + 4 * v, acc[i][v]);
    pk_gemm_f32_tile_store(t, tile, NR);
    return;
  }
  const float32x4_t lo = vdupq_n_f32(t->min), hi = vdupq_n_f32(t->max);
  for (int i = 0; i < MR; i++) {
    float *c = t->c + (size_t)i * t->ldc;
    float32x4_t bm = vdupq_n_f32(t->bias_m && !t->load_c ? t->bias_m[i] : 0.0f);
    for (int v = 0; v < 3; v++) {
      float32x4_t x = acc[i][v];
      if (t->load_c)
        x = vaddq_f32(x, vld1q_f32(c + 4 * v));
      else
        x = vaddq_f32(x, t->bias_n ? vaddq_f32(bm, vld1q_f32(t->bias_n + 4 * v)) : bm);
      if (t->clamp) x = vbslq_f32(vcltq_f32(x, lo), lo, vbslq_f32(vcgtq_f32(x, hi), hi, x));
      vst1q_f32(c + 4 * v, x);
    }
  }
}

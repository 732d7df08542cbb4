/* f32 GEMM row micro-kernel, portable C, 1×8: one row of A (any stride)
 * against a packed B micro-panel (M = 1 and small M). */
#include "cpu/gemm_ukernel.h"

enum { NR = 8 };

void pk_f32_gemm_1x8_scalar(const pk_gemm_f32_tile *t) {
  float acc[NR] = {0};
  const float *a = t->a, *b = t->b;
  for (size_t k = 0; k < t->kc; k++, a += t->a_stride, b += NR)
    for (int j = 0; j < NR; j++) acc[j] += a[0] * b[j];
  pk_gemm_f32_tile_store(t, acc, NR);
}

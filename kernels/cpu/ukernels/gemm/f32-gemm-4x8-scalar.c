/* f32 GEMM micro-kernel, portable C, 4×8 tile: the scalar twin of the SIMD
 * kernels (same packed layouts and epilogue), for CPUs without them. Reads
 * B's first nr columns only (B in place). */
#include "cpu/gemm_ukernel.h"

enum { MR = 4, NR = 8 };

void pk_f32_gemm_4x8_scalar(const pk_gemm_f32_tile *t) {
  float acc[MR * NR] = {0};
  const float *a = t->a, *b = t->b;
  for (size_t k = 0; k < t->kc; k++, a += MR, b += t->b_stride)
    for (int i = 0; i < MR; i++)
      for (size_t j = 0; j < t->nr; j++) acc[i * NR + j] += a[i] * b[j];
  pk_gemm_f32_tile_store(t, acc, NR);
}

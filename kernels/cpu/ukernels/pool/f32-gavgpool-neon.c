/* f32 global average pool (the mean of a plane), NEON (see pool.h). */
#include <arm_neon.h>

#include "cpu/ukernels/pool/pool.h"

float pk_f32_gavgpool_neon(const float *x, size_t n) {
  float32x4_t a = vdupq_n_f32(0.0f), b = vdupq_n_f32(0.0f);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    a = vaddq_f32(a, vld1q_f32(x + i));
    b = vaddq_f32(b, vld1q_f32(x + i + 4));
  }
  float t = vaddvq_f32(vaddq_f32(a, b));
  for (; i < n; i++) t += x[i];
  return t / (float)n;
}

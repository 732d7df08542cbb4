/* f32 global average pool (the mean of a plane), scalar (see pool.h). */
#include "cpu/ukernels/pool/pool.h"

float pk_f32_gavgpool_scalar(const float *x, size_t n) {
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (size_t j = 0; j < 4; j++) acc[j] += x[i + j];
  float s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (; i < n; i++) s += x[i];
  return s / (float)n;
}

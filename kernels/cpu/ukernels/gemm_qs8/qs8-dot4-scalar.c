/* int8 dot products, 1 row x 4, scalar (see qs8.h). */
#include "cpu/ukernels/gemm_qs8/qs8.h"

void pk_qs8_dot4_scalar(size_t K, const int8_t *a, int32_t za, const int8_t *b, size_t b_stride, int32_t *dot) {
  int32_t acc[4] = {0, 0, 0, 0};
  for (size_t k = 0; k < K; k++) {
    int32_t x = a[k] - za;
    for (size_t j = 0; j < 4; j++) acc[j] += x * b[j * b_stride + k];
  }
  for (size_t j = 0; j < 4; j++) dot[j] = acc[j];
}

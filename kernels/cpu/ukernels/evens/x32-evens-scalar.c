/* Every second 32-bit element, scalar twin (see evens.h). */
#include <stdint.h>

#include "cpu/ukernels/evens/evens.h"

void pk_x32_evens_scalar(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride) {
  const uint32_t *s = src;
  uint32_t *d = dst;
  for (size_t r = 0; r < rows; r++, s++, d += dst_stride)
    for (size_t i = 0; i < n; i++) d[i] = s[2 * i];
}

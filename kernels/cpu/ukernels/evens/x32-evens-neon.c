/* Every second 32-bit element, NEON (see evens.h): vld2q splits 8 into
 * the even and odd 4; the last steps scalar. */
#include <arm_neon.h>

#include "cpu/ukernels/evens/evens.h"

void pk_x32_evens_neon(const void *src, size_t n, void *dst) {
  const uint32_t *s = src;
  uint32_t *d = dst;
  size_t i = 0;
  for (; i + 4 < n; i += 4) vst1q_u32(d + i, vld2q_u32(s + 2 * i).val[0]); /* src[2i + 7] <= src[2n - 3] */
  pk_x32_evens_scalar(s + 2 * i, n - i, d + i);
}

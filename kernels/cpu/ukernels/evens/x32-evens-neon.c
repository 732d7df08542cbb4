/* Every second 32-bit element, NEON (see evens.h): vld2q splits 8 into
 * the even and odd 4; a row's last steps scalar. */
#include <arm_neon.h>

#include "cpu/ukernels/evens/evens.h"

void pk_x32_evens_neon(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride) {
  for (size_t r = 0; r < rows; r++) {
    const uint32_t *s = (const uint32_t *)src + r;
    uint32_t *d = (uint32_t *)dst + r * dst_stride;
    size_t i = 0;
    for (; i + 4 < n; i += 4) vst1q_u32(d + i, vld2q_u32(s + 2 * i).val[0]); /* s[2i + 7] <= s[2n - 3] */
    pk_x32_evens_scalar(s + 2 * i, n - i, 1, d + i, 0);
  }
}

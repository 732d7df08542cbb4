/* 32-bit transpose, NEON (see transpose.h): whole 4x4 tiles in registers
 * (trn of row pairs, then the 64-bit halves recombined); the edges scalar. */
#include <arm_neon.h>

#include "cpu/ukernels/transpose/transpose.h"

static void tile4(const uint32_t *s, size_t ss, uint32_t *d, size_t ds) {
  uint32x4x2_t a = vtrnq_u32(vld1q_u32(s), vld1q_u32(s + ss)), b = vtrnq_u32(vld1q_u32(s + 2 * ss), vld1q_u32(s + 3 * ss));
  vst1q_u32(d, vcombine_u32(vget_low_u32(a.val[0]), vget_low_u32(b.val[0])));
  vst1q_u32(d + ds, vcombine_u32(vget_low_u32(a.val[1]), vget_low_u32(b.val[1])));
  vst1q_u32(d + 2 * ds, vcombine_u32(vget_high_u32(a.val[0]), vget_high_u32(b.val[0])));
  vst1q_u32(d + 3 * ds, vcombine_u32(vget_high_u32(a.val[1]), vget_high_u32(b.val[1])));
}

void pk_x32_transpose_neon(const void *src, size_t ss, void *dst, size_t ds, size_t rows, size_t cols) {
  size_t r4 = rows / 4 * 4, c4 = cols / 4 * 4;
  for (size_t i0 = 0; i0 < r4; i0 += 4)
    for (size_t j0 = 0; j0 < c4; j0 += 4)
      tile4((const uint32_t *)src + i0 * ss + j0, ss, (uint32_t *)dst + j0 * ds + i0, ds);
  for (size_t i = 0; i < rows; i++) /* the right edge of every row, then the bottom rows */
    for (size_t j = i < r4 ? c4 : 0; j < cols; j++) pk_x32_transpose_one(src, ss, dst, ds, i, j);
}

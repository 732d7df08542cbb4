/* f32 depthwise, channels last, one output row, NEON: 4 channels a vector,
 * scalar tail (see dwconv_nhwc.h). */
#include <arm_neon.h>

#include "cpu/ukernels/dwconv/dwconv_nhwc.h"

void pk_f32_dwconv_nhwc_neon(const pk_dwconv_nhwc_row *p, float *out) {
  size_t C = p->C, C4 = C & ~(size_t)3;
  const float32x4_t vmin = vdupq_n_f32(p->min), vmax = vdupq_n_f32(p->max);
  for (size_t ox = 0; ox < p->ow; ox++, out += C) {
    for (size_t c = 0; c < C4; c += 4) {
      float32x4_t acc = p->bias ? vld1q_f32(p->bias + c) : vdupq_n_f32(0.0f);
      for (size_t ky = 0; ky < p->kh; ky++) {
        const float *row = pk_dw_nhwc_row(p, ky);
        if (!row) continue;
        for (size_t kx = 0, ix; kx < p->kw; kx++) {
          if (!pk_dw_nhwc_col(p, ox, kx, &ix)) continue;
          acc = vfmaq_f32(acc, vld1q_f32(row + ix * C + c), vld1q_f32(p->w + (ky * p->kw + kx) * C + c));
        }
      }
      vst1q_f32(out + c, vminq_f32(vmaxq_f32(acc, vmin), vmax));
    }
    for (size_t c = C4; c < C; c++) {
      float acc = p->bias ? p->bias[c] : 0.0f;
      for (size_t ky = 0; ky < p->kh; ky++) {
        const float *row = pk_dw_nhwc_row(p, ky);
        if (!row) continue;
        for (size_t kx = 0, ix; kx < p->kw; kx++)
          if (pk_dw_nhwc_col(p, ox, kx, &ix)) acc += row[ix * C + c] * p->w[(ky * p->kw + kx) * C + c];
      }
      float v = acc < p->min ? p->min : acc;
      out[c] = v > p->max ? p->max : v;
    }
  }
}

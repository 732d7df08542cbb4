/* f32 depthwise, channels last, one output row, scalar (see dwconv_nhwc.h). */
#include "cpu/ukernels/dwconv/dwconv_nhwc.h"

void pk_f32_dwconv_nhwc_scalar(const pk_dwconv_nhwc_row *p, float *out) {
  size_t C = p->C;
  for (size_t ox = 0; ox < p->ow; ox++, out += C) {
    for (size_t c = 0; c < C; c++) out[c] = p->bias ? p->bias[c] : 0.0f;
    for (size_t ky = 0; ky < p->kh; ky++) {
      const float *row = pk_dw_nhwc_row(p, ky);
      if (!row) continue;
      for (size_t kx = 0, ix; kx < p->kw; kx++) {
        if (!pk_dw_nhwc_col(p, ox, kx, &ix)) continue;
        const float *x = row + ix * C, *w = p->w + (ky * p->kw + kx) * C;
        for (size_t c = 0; c < C; c++) out[c] += x[c] * w[c];
      }
    }
    for (size_t c = 0; c < C; c++) {
      float v = out[c] < p->min ? p->min : out[c];
      out[c] = v > p->max ? p->max : v;
    }
  }
}

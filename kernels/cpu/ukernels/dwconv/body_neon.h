/* NEON depthwise body: 4 output columns per vector while the vector's loads
 * stay inside the row, scalar after; stride 2 de-interleaves with vld2q. */
#ifndef PK_UKERNELS_DWCONV_BODY_NEON_H
#define PK_UKERNELS_DWCONV_BODY_NEON_H

#include <arm_neon.h>

#include "cpu/ukernels/dwconv/dwconv_common.h"

PK_DW_INLINE void pk_dw_neon(const float *in, const float *w, float bias, float *out,
                             const pk_dwconv2d_params *p, size_t K, size_t S) {
  size_t lo, hi;
  pk_dw_interior(p, K, S, &lo, &hi);
  size_t vend = lo;
  while (vend + 4 <= hi && (vend + 3) * S + K + S - 2 < p->w + p->pad_l) vend += 4;
  const float32x4_t vb = vdupq_n_f32(bias), vmin = vdupq_n_f32(p->min), vmax = vdupq_n_f32(p->max);
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_dw_rows(p, K, S, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    pk_dw_edges(in, w, bias, orow, p, K, S, k0, k1, oy, lo, hi);
    for (size_t ox = lo; ox < vend; ox += 4) {
      float32x4_t acc = vb;
      for (size_t ky = k0; ky < k1; ky++) {
        const float *r = in + (oy * S + ky - p->pad_t) * p->w + ox * S - p->pad_l;
        for (size_t kx = 0; kx < K; kx++) {
          float32x4_t v = S == 1 ? vld1q_f32(r + kx) : vld2q_f32(r + kx).val[0];
          acc = vfmaq_n_f32(acc, v, w[ky * K + kx]);
        }
      }
      acc = vminq_f32(vmaxq_f32(acc, vmin), vmax);
      vst1q_f32(orow + ox, acc);
    }
    for (size_t ox = vend; ox < hi; ox++) orow[ox] = pk_dw_pixel(in, w, bias, p, K, S, k0, k1, oy, ox);
  }
}

#endif

/* Portable depthwise body: the interior without bounds checks. */
#ifndef PK_UKERNELS_DWCONV_BODY_SCALAR_H
#define PK_UKERNELS_DWCONV_BODY_SCALAR_H

#include "cpu/ukernels/dwconv/dwconv_common.h"

PK_DW_INLINE void pk_dw_scalar(const float *in, const float *w, float bias, float *out,
                               const pk_dwconv2d_params *p, size_t K, size_t S) {
  size_t lo, hi;
  pk_dw_interior(p, K, S, &lo, &hi);
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_dw_rows(p, K, S, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    pk_dw_edges(in, w, bias, orow, p, K, S, k0, k1, oy, lo, hi);
    for (size_t ox = lo; ox < hi; ox++) {
      float acc = bias;
      for (size_t ky = k0; ky < k1; ky++) {
        const float *r = in + (oy * S + ky - p->pad_t) * p->w + ox * S - p->pad_l;
        for (size_t kx = 0; kx < K; kx++) acc += w[ky * K + kx] * r[kx];
      }
      orow[ox] = pk_dw_clamp(acc, p->min, p->max);
    }
  }
}

#endif

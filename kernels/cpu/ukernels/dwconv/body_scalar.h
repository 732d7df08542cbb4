/* Portable depthwise body: every output column from the staged rows. */
#ifndef PK_UKERNELS_DWCONV_BODY_SCALAR_H
#define PK_UKERNELS_DWCONV_BODY_SCALAR_H

#include "cpu/ukernels/dwconv/dwconv_common.h"

PK_DW_INLINE void pk_dw_scalar(const float *in, const float *w, float bias, float *out,
                               const pk_dwconv2d_params *p, size_t K, size_t S) {
  size_t next = 0;
  const float *rows[5];
  for (size_t oy = 0; oy < p->oh; oy++) {
    pk_dw_stage(in, p, K, S, oy, &next, rows, pk_dw_memcpy);
    float *orow = out + oy * p->ow;
    for (size_t ox = 0; ox < p->ow; ox++) {
      float acc = bias;
      for (size_t ky = 0; ky < K; ky++) {
        const float *r = rows[ky] + ox * S;
        for (size_t kx = 0; kx < K; kx++) acc += w[ky * K + kx] * r[kx];
      }
      orow[ox] = pk_dw_clamp(acc, p->min, p->max);
    }
  }
}

#endif

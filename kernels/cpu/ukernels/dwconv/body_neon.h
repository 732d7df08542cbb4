/* NEON depthwise body: 4 output columns per vector from the staged rows,
 * the last partial vector stored lane by lane; stride 2 de-interleaves with
 * vld2q. */
#ifndef PK_UKERNELS_DWCONV_BODY_NEON_H
#define PK_UKERNELS_DWCONV_BODY_NEON_H

#include <arm_neon.h>

#include "cpu/ukernels/dwconv/dwconv_common.h"

/* A staged row: whole vectors, then the tail element by element. */
PK_DW_INLINE void pk_dw_copy_neon(float *dst, const float *src, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(dst + i, vld1q_f32(src + i));
  for (; i < n; i++) dst[i] = src[i];
}

PK_DW_INLINE void pk_dw_neon(const float *in, const float *w, float bias, float *out,
                             const pk_dwconv2d_params *p, size_t K, size_t S) {
  const float32x4_t vb = vdupq_n_f32(bias), vmin = vdupq_n_f32(p->min), vmax = vdupq_n_f32(p->max);
  size_t next = 0;
  const float *rows[5];
  for (size_t oy = 0; oy < p->oh; oy++) {
    pk_dw_stage(in, p, K, S, oy, &next, rows, pk_dw_copy_neon);
    float *orow = out + oy * p->ow;
    for (size_t ox = 0; ox < p->ow; ox += 4) {
      float32x4_t acc = vb;
      for (size_t ky = 0; ky < K; ky++) {
        const float *r = rows[ky] + ox * S;
        for (size_t kx = 0; kx < K; kx++) {
          float32x4_t v = S == 1 ? vld1q_f32(r + kx) : vld2q_f32(r + kx).val[0];
          acc = vfmaq_n_f32(acc, v, w[ky * K + kx]);
        }
      }
      acc = vminq_f32(vmaxq_f32(acc, vmin), vmax);
      if (p->ow - ox >= 4) {
        vst1q_f32(orow + ox, acc);
      } else {
        float t[4];
        vst1q_f32(t, acc);
        for (size_t i = 0; i < p->ow - ox; i++) orow[ox + i] = t[i];
      }
    }
  }
}

#endif

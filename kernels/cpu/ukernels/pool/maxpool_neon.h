/* NEON max-pool body: 4 output columns per vector while the loads stay in
 * the row, scalar after; stride 2 de-interleaves with vld2q. */
#ifndef PK_UKERNELS_MAXPOOL_NEON_H
#define PK_UKERNELS_MAXPOOL_NEON_H

#include <arm_neon.h>
#include <math.h>

#include "cpu/ukernels/pool/maxpool_common.h"

PK_MP_INLINE void pk_mp_neon(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p, size_t S) {
  size_t lo, hi;
  pk_mp_interior(p, S, &lo, &hi);
  size_t span = (p->kw - 1) * p->dw + 1, vend = lo;
  while (vend + 4 <= hi && (vend + 3) * S + span + S - 2 < p->w + p->pad_l) vend += 4;
  const int32_t lanes[4] = {0, (int32_t)S, 2 * (int32_t)S, 3 * (int32_t)S};
  const int32x4_t lane = vld1q_s32(lanes);
  for (size_t oy = 0; oy < p->oh; oy++) {
    size_t k0, k1;
    pk_mp_rows(p, oy, &k0, &k1);
    float *orow = out + oy * p->ow;
    int64_t *irow = idx ? idx + oy * p->ow : NULL;
    pk_mp_span(in, orow, irow, p, k0, k1, oy, 0, lo);
    pk_mp_span(in, orow, irow, p, k0, k1, oy, k0 == k1 ? lo : vend, p->ow);
    for (size_t ox = lo; ox < vend && k0 < k1; ox += 4) {
      size_t x0 = ox * S - p->pad_l;
      float32x4_t best = vdupq_n_f32(-INFINITY);
      int32x4_t bi = vaddq_s32(vdupq_n_s32((int32_t)((oy * p->sh + k0 * p->dh - p->pad_t) * p->w + x0)), lane);
      for (size_t ky = k0; ky < k1; ky++) {
        size_t y = oy * p->sh + ky * p->dh - p->pad_t;
        const float *r = in + y * p->w + x0;
        for (size_t kx = 0; kx < p->kw; kx++) {
          size_t off = kx * p->dw;
          float32x4_t v = S == 1 ? vld1q_f32(r + off) : vld2q_f32(r + off).val[0];
          uint32x4_t vnan = vmvnq_u32(vceqq_f32(v, v)), bok = vceqq_f32(best, best);
          uint32x4_t up = vorrq_u32(vcgtq_f32(v, best), vandq_u32(vnan, bok));
          best = vbslq_f32(up, v, best);
          bi = vbslq_s32(up, vaddq_s32(vdupq_n_s32((int32_t)(y * p->w + x0 + off)), lane), bi);
        }
      }
      vst1q_f32(orow + ox, best);
      if (!irow) continue;
      vst1q_s64(irow + ox, vmovl_s32(vget_low_s32(bi)));
      vst1q_s64(irow + ox + 2, vmovl_s32(vget_high_s32(bi)));
    }
  }
}

#endif

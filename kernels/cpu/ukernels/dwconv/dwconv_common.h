/* ISA-neutral pieces the depthwise micro-kernel bodies share (internal to
 * kernels/cpu/ukernels/dwconv). K and S are compile-time constants at every
 * call site, so these inline into straight-line code. */
#ifndef PK_UKERNELS_DWCONV_COMMON_H
#define PK_UKERNELS_DWCONV_COMMON_H

#include "cpu/ukernels/dwconv/dwconv.h"

#define PK_DW_INLINE static inline __attribute__((always_inline))

/* Output columns [*lo, *hi) whose taps all lie inside the row. */
PK_DW_INLINE void pk_dw_interior(const pk_dwconv2d_params *p, size_t K, size_t S, size_t *lo,
                                 size_t *hi) {
  size_t a = (p->pad_l + S - 1) / S;
  size_t b = p->w + p->pad_l >= K ? (p->w + p->pad_l - K) / S + 1 : 0;
  if (b > p->ow) b = p->ow;
  if (a > p->ow) a = p->ow;
  *lo = a;
  *hi = b > a ? b : a;
}

/* Kernel rows [*k0, *k1) that land inside the input for output row oy. */
PK_DW_INLINE void pk_dw_rows(const pk_dwconv2d_params *p, size_t K, size_t S, size_t oy, size_t *k0,
                             size_t *k1) {
  ptrdiff_t iy0 = (ptrdiff_t)(oy * S) - (ptrdiff_t)p->pad_t;
  ptrdiff_t a = iy0 < 0 ? -iy0 : 0, b = (ptrdiff_t)p->h - iy0;
  if (b > (ptrdiff_t)K) b = (ptrdiff_t)K;
  if (b < a) b = a;
  *k0 = (size_t)a;
  *k1 = (size_t)b;
}

PK_DW_INLINE float pk_dw_clamp(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

/* One output pixel with every tap bounds-checked (the edges). */
PK_DW_INLINE float pk_dw_pixel(const float *in, const float *w, float bias,
                               const pk_dwconv2d_params *p, size_t K, size_t S, size_t k0, size_t k1,
                               size_t oy, size_t ox) {
  float acc = bias;
  ptrdiff_t ix0 = (ptrdiff_t)(ox * S) - (ptrdiff_t)p->pad_l;
  for (size_t ky = k0; ky < k1; ky++) {
    const float *row = in + (oy * S + ky - p->pad_t) * p->w;
    for (size_t kx = 0; kx < K; kx++) {
      ptrdiff_t ix = ix0 + (ptrdiff_t)kx;
      if (ix >= 0 && ix < (ptrdiff_t)p->w) acc += w[ky * K + kx] * row[ix];
    }
  }
  return pk_dw_clamp(acc, p->min, p->max);
}

/* The edge columns of output row oy: [0, lo) and [hi, ow). */
PK_DW_INLINE void pk_dw_edges(const float *in, const float *w, float bias, float *orow,
                              const pk_dwconv2d_params *p, size_t K, size_t S, size_t k0, size_t k1,
                              size_t oy, size_t lo, size_t hi) {
  for (size_t ox = 0; ox < lo; ox++) orow[ox] = pk_dw_pixel(in, w, bias, p, K, S, k0, k1, oy, ox);
  for (size_t ox = hi; ox < p->ow; ox++) orow[ox] = pk_dw_pixel(in, w, bias, p, K, S, k0, k1, oy, ox);
}

#endif

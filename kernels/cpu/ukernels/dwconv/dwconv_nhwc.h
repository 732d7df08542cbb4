/* f32 depthwise 2-d convolution micro-kernels, channels last: one output
 * row of one image, every channel, vectorised over the channels (contiguous
 * in NHWC).
 *
 * out[ox][c] = clamp(bias[c] + sum_{ky,kx} w[(ky*kw + kx)*C + c] *
 *                    img[iy0 + ky*dil_h][ox*stride - pad_l + kx*dil][c], min, max)
 * with rows outside [0, ih) and columns outside [0, iw) reading zero. Any kernel extent, stride and dilation. Names:
 * pk_f32_dwconv_nhwc_<isa>, one file per variant
 * (f32-dwconv-nhwc-c16-avx512.c: 16 channels a vector, masked tail), with a
 * scalar twin. Prefix pk_. */
#ifndef PK_UKERNELS_DWCONV_NHWC_H
#define PK_UKERNELS_DWCONV_NHWC_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

typedef struct pk_dwconv_nhwc_row {
  const float *img;   /* the image [ih, iw, C] */
  const float *w;     /* filters [kh*kw, C] */
  const float *bias;  /* [C], or NULL for none */
  ptrdiff_t iy0;      /* input row of tap row 0 (may be outside the image) */
  size_t C, kh, kw;   /* channels, kernel extent */
  size_t ih, iw, ow;  /* input extent, output row width */
  size_t dil_h, stride, dil, pad_l; /* dil_h: between tap rows; the rest along the row */
  float min, max; /* output clamp (-INFINITY, INFINITY for none) */
} pk_dwconv_nhwc_row;

typedef void (*pk_f32_dwconv_nhwc_fn)(const pk_dwconv_nhwc_row *p, float *out);

PT_FUNC void pk_f32_dwconv_nhwc_scalar(const pk_dwconv_nhwc_row *p, float *out);
#if defined(__x86_64__)
PT_FUNC void pk_f32_dwconv_nhwc_avx2(const pk_dwconv_nhwc_row *p, float *out);
PT_FUNC void pk_f32_dwconv_nhwc_avx512(const pk_dwconv_nhwc_row *p, float *out);
#elif defined(__aarch64__)
PT_FUNC void pk_f32_dwconv_nhwc_neon(const pk_dwconv_nhwc_row *p, float *out);
#endif

/* Input row of tap row ky, or NULL outside the image. */
static inline const float *pk_dw_nhwc_row(const pk_dwconv_nhwc_row *p, size_t ky) {
  ptrdiff_t iy = p->iy0 + (ptrdiff_t)(ky * p->dil_h);
  return iy >= 0 && iy < (ptrdiff_t)p->ih ? p->img + (size_t)iy * p->iw * p->C : NULL;
}

/* Input column of tap kx for output column ox; false outside the row. */
static inline bool pk_dw_nhwc_col(const pk_dwconv_nhwc_row *p, size_t ox, size_t kx, size_t *ix) {
  size_t x = ox * p->stride + kx * p->dil;
  if (x < p->pad_l || x - p->pad_l >= p->iw) return false;
  *ix = x - p->pad_l;
  return true;
}

#endif

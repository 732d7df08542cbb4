/* NCHW depthwise convolution on small planes through the channels-last
 * micro-kernels (internal to conv2d.c): per image the input is transposed
 * to [H, W, C], the NHWC depthwise rows run vectorised over the channels,
 * and the result is transposed back. On small planes (MobileNetV2's 7x7)
 * the per-plane NCHW kernels spend their time in row edges; here every
 * vector is full channels. Filters packed as [kh*kw, C].
 * Prefix pk_. */
#ifndef PK_CPU_CONV2D_DWCL_H
#define PK_CPU_CONV2D_DWCL_H

#include "cpu/conv_geom.h"
#include "ptera/kernel.h"

PT_FUNC bool pk_conv2d_dwcl_applies(const pk_conv2d_geom *g);
PT_FUNC size_t pk_conv2d_dwcl_pack_size(const pk_conv2d_geom *g);
PT_FUNC void pk_conv2d_dwcl_pack(const pk_conv2d_geom *g, const float *w, void *packed);
PT_FUNC void pk_conv2d_dwcl_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n,
                                       const double *scale);
PT_FUNC size_t pk_conv2d_dwcl_workspace(const pk_conv2d_geom *g);
PT_FUNC void pk_conv2d_dwcl_run(const pk_conv2d_geom *g, const float *in, const void *packed, const float *bias,
                                float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx);

#endif

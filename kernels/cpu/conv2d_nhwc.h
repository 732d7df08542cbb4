/* The f32 convolution for channels-last activations (pk_conv2d_f32 with
 * g->layout == PK_CONV_NHWC; internal to conv2d.c): in [N, H, W, C_in],
 * out [N, oh, ow, C_out], weight [C_out, kh, kw, C_in/groups] (the OHWI
 * order of a channels-last [C_out, C_in/groups, kh, kw] tensor), not
 * transposed.
 *   depthwise: the dwconv_nhwc micro-kernels (one output row a call,
 *     vectorised over the channels), on filters repacked as [kh*kw, C];
 *   otherwise per image, group and tile of output pixels: the pixels' taps
 *     gathered as rows of A [pixels, kh*kw*C_in/g] (the input itself for a
 *     1x1 stride-1 unpadded convolution), C = A · B + bias written into the
 *     NHWC output (row stride C_out) by the GEMM, B the filters packed once
 *     as [kh*kw*C_in/g, C_out/g] per group.
 * Prefix pk_. */
#ifndef PK_CPU_CONV2D_NHWC_H
#define PK_CPU_CONV2D_NHWC_H

#include "cpu/conv_geom.h"
#include "ptera/kernel.h"

PT_FUNC size_t pk_conv2d_nhwc_pack_size(const pk_conv2d_geom *g);
PT_FUNC void pk_conv2d_nhwc_pack(const pk_conv2d_geom *g, const float *w, void *packed);
/* Output channels [oc0, oc0 + n) of packed filters times scale[0 .. n). */
PT_FUNC void pk_conv2d_nhwc_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n,
                                       const double *scale);
PT_FUNC size_t pk_conv2d_nhwc_workspace(const pk_conv2d_geom *g, size_t nthreads);
PT_FUNC void pk_conv2d_nhwc_run(const pk_conv2d_geom *g, const float *in, const void *packed, const float *bias,
                                float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx);

#endif

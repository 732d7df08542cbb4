/* The NCHW f32 convolution with output pixels as the product's rows, for
 * few pixels and many output channels (the 7x7 stages of ResNet and
 * MobileNetV2), used by pk_conv2d_f32 (conv2d.h): C[pixels, C_out/g] =
 * A[pixels, C_in/g*kh*kw] · W^T, A the input gathered into the GEMM's
 * packed panels, W the filters packed once as B; the GEMM splits C_out over the
 * threads and the result is transposed into the output planes. Both GEMM
 * operands then fill their register tiles better than with pixels as the
 * columns (49 pixels use 49 of 56 rows of 14, against 49 of 64 columns of
 * 32). Prefix pk_. */
#ifndef PK_CPU_CONV2D_PIXROWS_H
#define PK_CPU_CONV2D_PIXROWS_H

#include <stdbool.h>

#include "cpu/conv_geom.h"
#include "ptera/kernel.h"

/* Whether g takes this path (NCHW, not transposed, at most 64 output pixels,
 * at least 32 output channels per group, not depthwise). */
PT_FUNC bool pk_conv2d_pixrows_applies(const pk_conv2d_geom *g);
PT_FUNC size_t pk_conv2d_pixrows_pack_size(const pk_conv2d_geom *g);
PT_FUNC void pk_conv2d_pixrows_pack(const pk_conv2d_geom *g, const float *w, void *packed);
/* Output channels [oc0, oc0 + n) of packed filters times scale[0 .. n). */
PT_FUNC void pk_conv2d_pixrows_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n,
                                          const double *scale);
PT_FUNC size_t pk_conv2d_pixrows_workspace(const pk_conv2d_geom *g, size_t nthreads);
PT_FUNC void pk_conv2d_pixrows_run(const pk_conv2d_geom *g, const float *in, const void *packed, const float *bias,
                                   float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx);

#endif

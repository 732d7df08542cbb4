/* The 3x3 stride-1 f32 convolution by Winograd F(2x2, 3x3) or F(4x4, 3x3)
 * (NCHW), used by pk_conv2d_f32 (conv2d.h) where it wins over the gathered
 * product: 2.25x or 4x fewer multiplications; the 16 or 36 per-alpha
 * products C_a[C_out, tiles] =
 * U_a[C_out, C_in] · V_a[C_in, tiles] run on the GEMM layer, U the filters
 * transformed and packed once, V the transformed input written straight
 * into the GEMM's packed-B layout (ukernels/winograd/winograd.h). Results
 * differ from the direct sum by rounding only. Prefix pk_. */
#ifndef PK_CPU_CONV2D_WINOGRAD_H
#define PK_CPU_CONV2D_WINOGRAD_H

#include <stdbool.h>

#include "cpu/conv_geom.h"
#include "ptera/kernel.h"

/* Whether g takes this path: NCHW, not transposed, one group, 3x3, stride
 * and dilation 1, enough channels and output for the transforms to pay. */
PT_FUNC bool pk_conv2d_wino_applies(const pk_conv2d_geom *g);
/* The output tile g takes, 2 (F(2x2, 3x3)) or 4 (F(4x4, 3x3)), from its
 * geometry alone; 0 where the path does not apply. */
PT_FUNC size_t pk_conv2d_wino_tile(const pk_conv2d_geom *g);
/* Bytes of the transformed, packed filters (SIZE_MAX on overflow), and the packing. */
PT_FUNC size_t pk_conv2d_wino_pack_size(const pk_conv2d_geom *g);
PT_FUNC void pk_conv2d_wino_pack(const pk_conv2d_geom *g, const float *w, void *packed);
/* Output channels [oc0, oc0 + n) of packed filters times scale[0 .. n). */
PT_FUNC void pk_conv2d_wino_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n,
                                       const double *scale);
/* Workspace bytes for nthreads threads (SIZE_MAX on overflow). */
PT_FUNC size_t pk_conv2d_wino_workspace(const pk_conv2d_geom *g, size_t nthreads);
/* The convolution, clamped to [min, max]; packed from pk_conv2d_wino_pack;
 * ws as pk_conv2d_wino_workspace(g, ptera_kernel_thread_count(ctx)). */
PT_FUNC void pk_conv2d_wino_run(const pk_conv2d_geom *g, const float *in, const void *packed, const float *bias,
                                float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx);

#endif

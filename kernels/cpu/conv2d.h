/* Typed f32 2-d convolution for the fast path (contiguous NCHW, or
 * channels last).
 *
 * g->layout NCHW: in [N, C_in, H, W]; weight [C_out, C_in/groups, kh, kw]
 * ([C_in, C_out/groups, kh, kw] when transposed); out [N, C_out, oh, ow].
 * g->layout NHWC (channels last, dim order [0, 2, 3, 1], not transposed):
 * in [N, H, W, C_in]; weight [C_out, kh, kw, C_in/groups]; out [N, oh, ow,
 * C_out] (conv2d_nhwc.h). Both: bias [C_out] or NULL; out = clamp(conv(in,
 * weight) + bias, min, max), with the same pack / workspace contract.
 * NCHW:
 *   depthwise on a small output plane (<= 8x8, >= 16 channels): through
 *     channels last (conv2d_dwcl.h), vectorised over the channels;
 *   other depthwise 3x3 / 5x5, stride 1 or 2 (both dims), dilation 1: the
 *     dwconv micro-kernels, one channel plane per task;
 *   3x3 stride 1, one group, enough channels and pixels: Winograd F(2x2, 3x3)
 *     (conv2d_winograd.h);
 *   everything else (1x1, general, grouped, dilated): per image, group and
 *     tile of output pixels the input is gathered (im2col) straight into the
 *     GEMM's packed-B layout, then C[C_out/g, tile] = W·B + bias is written
 *     into the NCHW output by the micro-kernels, W the filters packed once
 *     (pk_conv2d_f32_pack); threads take tiles (and, with fewer tiles than
 *     threads, shares of one tile's product);
 *   transposed: by output phase (sub-pixel decomposition): the outputs whose
 *     row is r mod stride read a fixed subset of kernel rows, so each phase is
 *     an ordinary gather + product over that sub-kernel; no zero insertion.
 * Prefix pk_. */
#ifndef PK_CPU_CONV2D_H
#define PK_CPU_CONV2D_H

#include "cpu/conv_geom.h"
#include "ptera/kernel.h"

/* Whether pk_conv2d_f32 handles g (NCHW: any stride, padding, dilation,
 * groups, output padding; NHWC: the same but not transposed). */
PT_FUNC bool pk_conv2d_f32_supported(const pk_conv2d_geom *g);
/* Bytes of g's filters packed for the product (0 when g's path reads them as
 * they are; SIZE_MAX on overflow), and the packing: at method load
 * (prepare) for constant filters. The packed form is tied to the ISA
 * selected when packing. */
PT_FUNC size_t pk_conv2d_f32_pack_size(const pk_conv2d_geom *g);
PT_FUNC void pk_conv2d_f32_pack(const pk_conv2d_geom *g, const float *w, void *packed);
/* Output channels [oc0, oc0 + n) of filters packed by pk_conv2d_f32_pack
 * multiplied by scale[0 .. n) (a batch norm folded into packed filters);
 * each product rounded once to f32. Not for transposed filters. */
PT_FUNC void pk_conv2d_f32_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n,
                                      const double *scale);
/* Whether filters packed for geometry a serve b (which may differ in batch
 * and spatial extent). */
PT_FUNC bool pk_conv2d_f32_same_pack(const pk_conv2d_geom *a, const pk_conv2d_geom *b);
/* Bytes of workspace pk_conv2d_f32 needs for g with nthreads threads (may
 * be 0); SIZE_MAX when it would overflow. */
PT_FUNC size_t pk_conv2d_f32_workspace(const pk_conv2d_geom *g, size_t nthreads);
/* Computes the convolution; packed_w is w packed by pk_conv2d_f32_pack (64-byte
 * aligned) or NULL; ws (64-byte aligned) holds pk_conv2d_f32_workspace(g,
 * nthreads) bytes for nthreads = ptera_kernel_thread_count(ctx) (ctx NULL =
 * one thread), and pk_conv2d_f32_pack_size(g) more when packed_w is NULL:
 * the filters are then packed per call into the front of ws. */
PT_FUNC void pk_conv2d_f32(const pk_conv2d_geom *g, const float *in, const float *w,
                           const void *packed_w, const float *bias, float *out, float min,
                           float max, void *ws, ptera_kernel_ctx *ctx);

#endif

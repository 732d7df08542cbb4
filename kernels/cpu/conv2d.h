/* Typed f32 2-d convolution for the fast path (NCHW, contiguous).
 *
 * in [N, C_in, H, W]; weight [C_out, C_in/groups, kh, kw] ([C_in,
 * C_out/groups, kh, kw] when transposed); bias [C_out] or NULL; out [N,
 * C_out, oh, ow]; out = clamp(conv(in, weight) + bias, min, max).
 *   depthwise 3x3 / 5x5, stride 1 or 2 (both dims), dilation 1: the dwconv
 *     micro-kernels, one channel plane per task;
 *   everything else (1x1, general, grouped, dilated): per image and group a
 *     matrix product C[C_out/g, pixels] = W[C_out/g, C_in/g*kh*kw] * B, B the
 *     input itself for a 1x1 stride-1 unpadded convolution, otherwise gathered
 *     (im2col) tile by tile into the workspace;
 *   transposed: by output phase (sub-pixel decomposition): the outputs whose
 *     row is r mod stride read a fixed subset of kernel rows, so each phase is
 *     an ordinary gather + product over that sub-kernel; no zero insertion.
 * Prefix pk_. */
#ifndef PK_CPU_CONV2D_H
#define PK_CPU_CONV2D_H

#include "cpu/conv_geom.h"
#include "ptera/kernel.h"

/* Whether pk_conv2d_f32 handles g (NCHW; any stride, padding, dilation,
 * groups, output padding). */
PT_FUNC bool pk_conv2d_f32_supported(const pk_conv2d_geom *g);
/* Bytes of g's filters packed for the product (0 when g's path reads them as
 * they are; SIZE_MAX on overflow), and the packing: at method load
 * (prepare), or per call into the workspace when it fits. The packed form is
 * tied to the ISA selected when packing. */
PT_FUNC size_t pk_conv2d_f32_pack_size(const pk_conv2d_geom *g);
PT_FUNC void pk_conv2d_f32_pack(const pk_conv2d_geom *g, const float *w, void *packed);
/* Bytes of workspace pk_conv2d_f32 needs for g with nthreads threads (may
 * be 0); SIZE_MAX when it would overflow. */
PT_FUNC size_t pk_conv2d_f32_workspace(const pk_conv2d_geom *g, size_t nthreads);
/* Computes the convolution; packed_w is w packed by pk_conv2d_f32_pack (64-byte
 * aligned) or NULL; ws holds pk_conv2d_f32_workspace(g, nthreads) bytes,
 * 64-byte aligned, for nthreads = ptera_kernel_thread_count(ctx) (ctx NULL =
 * one thread). */
PT_FUNC void pk_conv2d_f32(const pk_conv2d_geom *g, const float *in, const float *w,
                           const void *packed_w, const float *bias, float *out, float min,
                           float max, void *ws, ptera_kernel_ctx *ctx);

#endif

/* Fused kernels: one kernel in place of a group of instructions that the
 * runtime recognised at method load (src/runtime/fuse*.c). Each has a
 * prepare step that accepts the group by setting a state, or declines
 * (returns OK with no state; the group then runs as written), and a run
 * function over the argument layout below. Prefix pk_. */
#ifndef PK_FUSED_H
#define PK_FUSED_H

#include "core/core.h"
#include "ptera/kernel.h"

/* convolution -> [batch norm, constant parameters] -> [clamp]:
 * out = clamp(bn(conv(in, weight) + bias), min, max), batch norm folded into
 * the filters and bias at prepare. conv_out is the convolution's own output,
 * used as staging when out shares memory with the input. Absent batch norm:
 * bn_mean is None. */
enum {
  PK_FC_IN, PK_FC_W, PK_FC_B, PK_FC_STRIDE, PK_FC_PAD, PK_FC_DIL, PK_FC_TRANSPOSED,
  PK_FC_OUT_PAD, PK_FC_GROUPS, /* as convolution.out's arguments 0..8 */
  PK_FC_CONV_OUT,
  PK_FC_BN_W, PK_FC_BN_B, PK_FC_BN_MEAN, PK_FC_BN_VAR, PK_FC_BN_EPS, /* weight, bias may be None */
  PK_FC_MIN, PK_FC_MAX, /* Double (+-inf: no bound) */
  PK_FC_OUT,
  PK_FC_NARGS
};
PT_FUNC ptera_status pk_fused_conv_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                           size_t nargs);
PT_FUNC ptera_status pk_fused_conv_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);

/* linear -> [view] -> clamp: out = clamp(input @ weight^T + bias, min, max),
 * weight packed at prepare; out holds the product's elements in any shape. */
enum {
  PK_FL_IN, PK_FL_W, PK_FL_B, /* as linear.out's arguments 0..2 */
  PK_FL_MIN, PK_FL_MAX,
  PK_FL_OUT,
  PK_FL_NARGS
};
PT_FUNC ptera_status pk_fused_linear_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                             size_t nargs);
PT_FUNC ptera_status pk_fused_linear_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);

/* add -> clamp: out = clamp(self + alpha * other, min, max), NaN kept; f32
 * tensors of one shape, no broadcasting. */
enum { PK_FA_SELF, PK_FA_OTHER, PK_FA_ALPHA, PK_FA_MIN, PK_FA_MAX, PK_FA_OUT, PK_FA_NARGS };
PT_FUNC ptera_status pk_fused_add_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                          size_t nargs);
PT_FUNC ptera_status pk_fused_add_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);

/* [transpose | permute | expand | view]... -> bmm: out[i] = a[i] @ B[i] with
 * B[i] (K x N) read in place from src, element (r, c) of batch i at
 * src[i*SB + r*SK + c*SN] (Int element strides): the layout copies before
 * the bmm are never made. f32 tensors of static shapes: a [batch, M, K]
 * and out [batch, M, N] contiguous, src contiguous and covering every
 * element read. out may share src's or a's memory (staged). */
enum { PK_FB_A, PK_FB_SRC, PK_FB_SB, PK_FB_SK, PK_FB_SN, PK_FB_OUT, PK_FB_NARGS };
PT_FUNC ptera_status pk_fused_bmm_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                          size_t nargs);
PT_FUNC ptera_status pk_fused_bmm_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);

/* [div | mul] by a Scalar -> [add a mask] -> _softmax over the last dim:
 * out = softmax(in / scale + mask) (in * scale when divide is false), the
 * scale as float. f32 tensors of static shapes, in and out contiguous of
 * one shape; the mask (None when absent) of in's shape or one row of the
 * last dim's length (every other size 1). */
enum { PK_FS_IN, PK_FS_SCALE, PK_FS_DIVIDE, PK_FS_MASK, PK_FS_OUT, PK_FS_NARGS };
PT_FUNC ptera_status pk_fused_softmax_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                              size_t nargs);
PT_FUNC ptera_status pk_fused_softmax_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);

/* pow(x, 2) -> mean(-1, keepdim) -> add(eps) -> rsqrt -> mul(x) -> [mul(w)]
 * (RMSNorm as exported): per row of x's last dim, y = (x * r) * w with
 * r = rsqrt(sum(x * x) / D + eps), each step rounded as the portable fast
 * paths' (the same vector loops). f32, contiguous, static: x and out of one
 * shape [.., D], w None or [D]; eps a Double (read as float, as add.Scalar).
 * out may share x's or w's memory (staged). */
enum { PK_FR_X, PK_FR_W, PK_FR_EPS, PK_FR_OUT, PK_FR_NARGS };
PT_FUNC ptera_status pk_fused_rms_norm_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                               size_t nargs);
PT_FUNC ptera_status pk_fused_rms_norm_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);

/* max_pool2d_with_indices whose indices nothing reads: the values only (the
 * indices tensor is left as it was). Arguments as the op's (self, kernel,
 * stride, padding, dilation, ceil_mode, out); f32, contiguous, static,
 * [C, H, W] or [N, C, H, W]. */
enum { PK_FM_IN, PK_FM_K, PK_FM_S, PK_FM_P, PK_FM_D, PK_FM_CEIL, PK_FM_OUT, PK_FM_NARGS };
PT_FUNC ptera_status pk_fused_maxpool_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args,
                                              size_t nargs);
PT_FUNC ptera_status pk_fused_maxpool_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);

#endif

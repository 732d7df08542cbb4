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

#endif

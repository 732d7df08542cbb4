/* Cadence (Xtensa) quantized operators, computed as ExecuTorch's generic host
 * kernels (backends/cadence/generic) do, so results are bit-exact with them. */
#ifndef PK_CADENCE_H
#define PK_CADENCE_H

#include "core/core.h"
#include "ptera/kernel.h"

/* cadence::quantize_per_tensor.out(Tensor input, float scale, int zero_point,
 * int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) */
PT_FUNC ptera_status pk_cadence_quantize_per_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                        size_t nargs);
/* cadence::dequantize_per_tensor.out(Tensor input, float scale, int zero_point,
 * int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) */
PT_FUNC ptera_status pk_cadence_dequantize_per_tensor_out(ptera_kernel_ctx *ctx,
                                                          ptera_value **args, size_t nargs);
/* cadence::quantized_conv2d_nchw.per_tensor_out(Tensor input, Tensor weight, Tensor bias,
 * int[] stride, SymInt[] padding, int[] dilation, int groups, int input_zero_point,
 * int weight_zero_point, float bias_scale, float out_scale, int out_zero_point,
 * int out_multiplier, int out_shift, *, Tensor(a!) out) */
PT_FUNC ptera_status pk_cadence_quantized_conv2d_nchw_per_tensor_out(ptera_kernel_ctx *ctx,
                                                                     ptera_value **args,
                                                                     size_t nargs);

#endif

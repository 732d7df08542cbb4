/* Lowering to ExecuTorch's Cortex-M operators (prefix pc_cm_): a calibrated
 * fp32 method becomes a static int8 program of cortex_m:: kernel calls
 * (../shared/spec/CORTEX_M.md) that ExecuTorch's cortex_m library, or ptera,
 * runs.
 *
 *   x (fp32) -> quantize_per_tensor -> [int8 calls] -> dequantize_per_tensor -> y (fp32)
 *
 * Quantization (calibrate.h): activations per-tensor affine int8 from the
 * calibrated ranges; convolution weights per output channel symmetric int8,
 * linear weights per tensor (quantized_linear uses one multiplier); biases
 * int32 at s_in * s_w. Arguments follow the exporter's conventions of
 * CORTEX_M.md: offsets instead of zero points (input_offset = -zp_in,
 * output_offset = zp_out), Q31 multiplier/shift pairs from
 * quantize_multiplier(s_in * s_w / s_out), clamps at the output's int8 range
 * narrowed by a fused ReLU. 4-D int8 activations are channels-last (dim
 * order 0,2,3,1) unless C == 1 or H == W == 1 (either order, stored
 * contiguous); dim_order_ops::_clone_dim_order converts where a consumer
 * needs the other layout.
 *
 * Lowered (every other live call fails naming the node and operator; there
 * is no fp32 fallback):
 *   aten::convolution.out (2-D, not transposed) [+ relu] -> quantized_conv2d,
 *       or quantized_depthwise_conv2d when groups == C_in, C_out % C_in == 0, N == 1
 *   aten::linear.out, addmm.out (beta = alpha = 1), mm.out, constant weight
 *       [+ relu] -> quantized_linear
 *   aten::add.out (alpha 1, equal shapes) [+ relu] -> quantized_add
 *   aten::avg_pool2d.out (no padding counted, no divisor override) -> quantized_avg_pool2d
 *   aten::max_pool2d_with_indices.out (indices unused) -> quantized_max_pool2d
 *   aten::_softmax.out over the last dim -> softmax (output scale 1/256, zero point -128)
 *   aten::view_copy.out -> aten::view_copy.out on the int8 tensor
 * Pooling and views keep their input's quantization.
 *
 * Scratch tensors (CORTEX_M.md 1) are planned BYTE tensors sized as an upper
 * bound of CMSIS-NN's working buffers; ptera's kernels do not use them. */
#ifndef PTERA_COMPILER_TO_CORTEX_M_H
#define PTERA_COMPILER_TO_CORTEX_M_H

#include "calibrate.h"

typedef struct pc_cm_stats {
  uint32_t lowered;  /* fp32 calls replaced (fused ReLUs included) */
  uint32_t calls;    /* cortex_m:: and layout calls written */
  uint32_t layouts;  /* _clone_dim_order calls among them */
} pc_cm_stats;

/* Rewrites g in place. ranges: pc_calibrate's result for g (g->nvalues
 * entries at calibration; values added since have none). */
PT_FUNC ptera_status pc_to_cortex_m(pc_graph *g, const pc_range *ranges, pc_cm_stats *stats);

#endif

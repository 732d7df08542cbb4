/* Static int8 quantization support (prefix pc_): activation ranges measured
 * by running the fp32 graph on calibration samples, and the quantization
 * parameters derived from them.
 *
 * Ranges: every live call of the method is evaluated in node order with the
 * runtime's own kernels (eval.h, the evaluator constant propagation uses), on
 * each sample; ranges[v] is the min and max over all samples of every float
 * tensor v that is a method input or written by a call.
 *
 * Parameters follow PyTorch's PT2E defaults as XNNPACKQuantizer configures
 * them (torch.ao.quantization MinMaxObserver / PerChannelMinMaxObserver,
 * `_calculate_qparams`), in float32 like the observers:
 *  - activations: per-tensor affine int8 [-128, 127]; the range is widened
 *    to hold 0, scale = (max - min) / 255 (at least FLT_EPSILON),
 *    zero_point = clamp(-128 - round_half_even(min / scale), -128, 127).
 *    Min/max of the samples as MinMaxObserver takes them (XNNPACKQuantizer's
 *    static config uses a HistogramObserver for activations, whose range
 *    search is not reproduced here).
 *  - weights: symmetric int8 [-127, 127], zero point 0, per output channel
 *    (per tensor where the kernel takes one multiplier): scale =
 *    max(|min|, |max|) / 127 (at least FLT_EPSILON).
 *  - quantizing a value (quantized_decomposed.quantize_per_tensor/_channel):
 *    q = clamp(round_half_even(x * (1 / scale)) + zero_point, qmin, qmax),
 *    the product in float32; biases likewise in int32 with scale
 *    s_input * s_weight and zero point 0. */
#ifndef PTERA_COMPILER_CALIBRATE_H
#define PTERA_COMPILER_CALIBRATE_H

#include "graph.h"

/* Samples for one method: data[s * ninputs + i] is sample s's value of the
 * method's input i, float32 in logical (row-major) order, numel[s * ninputs
 * + i] elements (must equal the input's). */
typedef struct pc_calibration {
  uint32_t nsamples, ninputs;
  const float *const *data;
  const size_t *numel;
} pc_calibration;

typedef struct pc_range {
  float min, max;
  bool seen; /* a float tensor measured at least once */
} pc_range;

/* Fills ranges (g->nvalues entries). Every tensor a live call touches must
 * have a static shape. Errors (sample shapes, a failing kernel) name the
 * sample, node and operator in g->err. */
PT_FUNC ptera_status pc_calibrate(pc_graph *g, const pc_calibration *cal, pc_range *ranges);

typedef struct pc_qparams {
  float scale;
  int32_t zero_point;
} pc_qparams;

/* Per-tensor affine int8 parameters of a measured range. */
PT_FUNC pc_qparams pc_qparams_affine_i8(float min, float max);
/* Symmetric int8 scale ([-127, 127], zero point 0) of a range. */
PT_FUNC float pc_qscale_symmetric_i8(float min, float max);
/* clamp(round_half_even(x * (1 / scale)) + zero_point, qmin, qmax). */
PT_FUNC int64_t pc_quantize_value(float x, float scale, int32_t zero_point, int64_t qmin,
                                  int64_t qmax);

#endif

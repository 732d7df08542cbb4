/* What the quantizers share (prefix pc_q): which calls are linear layers,
 * and the weight quantization formulas.
 *
 * A linear layer is linear(x, W [oc, ic], b), mm(x, W [ic, oc]) or
 * addmm(b, x, W [ic, oc], beta, alpha). The quantizers touch only layers
 * whose W is a float32 constant; mm / addmm of a run-time W are matrix
 * products, not layers, and stay as they are.
 *
 * int8 per output channel, symmetric (8da8w, int8-weight):
 *   scale[o] = max(max_k |W[o][k]| / 127, FLT_EPSILON)             (fp32)
 *   q[o][k]  = clamp(rint(W[o][k] / scale[o]), -127, 127)         (ties to even)
 * int4 per group of gs inputs, symmetric (8da4w, int4-weight), torchao's
 * get_group_qparams_symmetric and quantize_per_channel_group (n_bit 4: the
 * scale divides max |W| by (7 - (-8)) / 2 = 7.5):
 *   scale[o][j] = max(max_{k in group j} |W[o][k]| / 7.5, FLT_EPSILON)   (fp32)
 *   q[o][k]     = clamp(rint(W[o][k] / scale[o][k / gs]), -8, 7)          (ties to even)
 * Real weights are scale * q. */
#ifndef PTERA_COMPILER_QUANT_H
#define PTERA_COMPILER_QUANT_H

#include "diag.h"
#include "graph.h"

typedef struct pc_linear {
  int32_t x, w, b;  /* value ids; b -1 when the call has no bias argument */
  bool transposed;  /* W is [ic, oc] (mm, addmm) */
  uint32_t ic, oc;  /* from W's shape */
} pc_linear;

/* Whether call n is a linear layer of a 2-D W (any dtype, constant or
 * not); fills *l. addmm needs beta = alpha = 1. */
PT_FUNC bool pc_linear_of(const pc_graph *g, const pc_gnode *n, pc_linear *l);

/* Whether W is a constant no live call writes (its bytes are the values
 * every run reads). */
PT_FUNC bool pc_q_weight_fixed(const pc_graph *g, int32_t w);

/* How tensor v is named in a message: its fqn, else the fqn it was
 * computed from (graph.h), else "value N" (written into buf). */
PT_FUNC const char *pc_q_tensor_name(const pc_graph *g, int32_t v, char *buf, size_t cap);

/* The checks every quantizer makes of layer l (node k): a bfloat16
 * weight, input or bias leaves it alone with a warning naming the tensor
 * (g->diag); a linear call whose weight is not a fixed constant fails
 * (g->err names the node and why); an mm / addmm of a run-time or
 * non-float weight is left alone (with a warning when that weight is a
 * run-time transpose of a weight replaceable by name, graph.h).
 * *quantize says whether to go on. */
PT_FUNC ptera_status pc_q_layer_check(pc_graph *g, uint32_t k, const pc_linear *l, bool *quantize);

/* W (float32, [ic, oc] when transposed, else [oc, ic]) quantized per output
 * channel: q [oc][ic], scales [oc]. */
PT_FUNC void pc_q8_channel(const float *w, bool transposed, uint32_t oc, uint32_t ic, int8_t *q,
                           float *scales);

/* W quantized per group of gs inputs (gs divides ic): q [oc][ic] in
 * [-8, 7], scales [oc][ic / gs]. */
PT_FUNC void pc_q4_group(const float *w, bool transposed, uint32_t oc, uint32_t ic, uint32_t gs,
                         int8_t *q, float *scales);

#endif

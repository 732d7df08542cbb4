/* Lowering to the XNNPACK delegate (prefix pc_xnn_): which calls XNNPACK can
 * run (xnn_support.c), one XNNGraph blob per partition (xnn_build.c), and the
 * method rewritten around DelegateCalls (to_xnnpack.c).
 *
 * Supported (float32, contiguous, static shapes unless noted; rank <= 6):
 *   convolution (2-D, not transposed; constant weight, constant or no bias)
 *     -> Conv2d, or DepthwiseConv2d when groups = input channels > 1
 *   linear (constant [oc, ic] weight) -> FullyConnected;
 *   mm / addmm (constant [ic, oc] weight, addmm: constant [oc] bias, beta =
 *     alpha = 1) -> FullyConnected with TRANSPOSE_WEIGHTS      (bounded shapes too)
 *   add / sub (alpha 1), mul, div (no rounding mode) -> binary, broadcasting;
 *     their .Scalar_out forms -> binary with a [1] constant   (bounded shapes too)
 *   pow(x, 2) -> Square; clone -> Copy                         (bounded shapes too)
 *   slice_copy (step 1) -> StaticSlice; split_copy -> one StaticSlice per piece
 *   relu, hardtanh, clamp (scalar bounds) -> Clamp, or fused into the
 *     output_min_max of the convolution / fully connected / binary node
 *     before it when that node's result has no other reader  (bounded shapes too)
 *   sigmoid, tanh, exp, log, neg, abs, sqrt, rsqrt, floor, ceil, gelu
 *     (approximate "none") -> the unary node                   (bounded shapes too)
 *   max_pool2d_with_indices (indices unread, floor mode) -> MaxPooling2d
 *   avg_pool2d (floor mode; padding 0 or count_include_pad false; no divisor
 *     override) -> AvgPooling2d
 *   mean over the last two dims of a 4-D tensor (keepdim), and
 *     _adaptive_avg_pool2d to 1x1 -> GlobalAvgPooling2d
 *   view_copy / squeeze_copy / unsqueeze_copy -> StaticReshape
 *   permute_copy, transpose_copy, t_copy -> StaticTranspose
 *   _softmax over the last dim -> Softmax                       (bounded shapes too)
 *   bmm (rank 3) -> BatchMatrixMultiply
 *   cat of 2..5 tensors -> Concatenate2..5
 * Convolution-type nodes work in NHWC: a value gets an NHWC copy (a
 * StaticTranspose [0,2,3,1]) where such a node first needs it, and an NCHW one
 * ([0,3,1,2]) where a layout-sensitive node or the partition's output needs
 * it, so transposes appear only where the layout changes, at most once per
 * value and layout; element-wise nodes run in the layout their operand has.
 * Delegate inputs and outputs are NCHW (contiguous), like the CPU's tensors.
 *
 * Weights are named data keyed by the lowercase SHA-256 hex of their (laid
 * out) bytes, docs/XNNPACK.md §4.3; the blob refers to them by key. */
#ifndef PTERA_COMPILER_TO_XNNPACK_H
#define PTERA_COMPILER_TO_XNNPACK_H

#include "calibrate.h"
#include "emit_xnn.h"
#include "graph.h"
#include "passes/mutation.h"
#include "passes/partition.h"
#include "quant_scope.h"

#define PC_XNN_BACKEND_ID "XnnpackBackend"

/* Quantization of the lowered FullyConnected nodes (the formulas are
 * quant.h's). 8da8w: each weight W [oc, ic] becomes int8 per output channel
 * (qcint8, channel_dim 0, fp32 scales in the blob), and its input is
 * quantized per row at run time (a Convert to qdint8, PerTokenDynamicQuant
 * with one non-batch dim); bias and output stay fp32. 8da4w: the same with
 * 4-bit weights per group of group_size inputs (qbint4, blockwise, zero
 * point 8, scales as bfloat16 rounded to nearest even, XNNPACK.md 6.3);
 * a layer whose input count group_size does not divide gets 8da8w instead
 * (a warning names it). Layers whose weight or input is bfloat16 stay
 * unquantized off the delegate (a warning names them); a linear call whose
 * weight is not a constant fails the lowering, naming the node.
 * int8-weight / int4-weight are weight-only: pc_quantize_weights (passes.h)
 * rewrites the graph before the lowering, which then quantizes nothing.
 * int8-static: from calibrated ranges (calibrate.h), every float32 value a
 * quantized node reads or writes gets per-tensor affine qint8 parameters
 * (pc_qparams_affine_i8 of its range; a clamp fused into a node gives that
 * node's output the clamp's range). Quantized nodes: Conv2d and
 * DepthwiseConv2d, FullyConnected (weights qcint8 per output channel as
 * 8da8w's, bias qcint32 per channel with scale s_in * s_w[o], each q =
 * pc_quantize_value), Add / Subtract / Multiply of two tensors, AvgPooling2d
 * and GlobalAvgPooling2d (output parameters from its range); MaxPooling2d,
 * Clamp, StaticReshape, StaticTranspose, StaticSlice and Copy of a qint8
 * value stay qint8 with their input's parameters (exact: they only move or
 * clamp values). Concatenate of qint8 values runs in qint8 with its output's
 * parameters (from its range) when each input is the fresh output of a
 * convolution or linear layer (a clamp folded in allowed) read by the cat
 * alone: those outputs take the cat's parameters, as XNNPACK needs every
 * input's to be the output's (upstream's shared quantization spec); other
 * cats run in fp32. Everything else runs in fp32: a Convert quantizes a value
 * where a quantized node first needs it and dequantizes it where an fp32
 * node or the partition's output needs it, so delegate inputs and outputs
 * stay fp32. A node whose requantization scale s_in * s_w / s_out reaches
 * XNNPACK's limit of 256 fails the lowering, naming it.
 * Every scheme quantizes only the calls g->qscope leaves in scope, and
 * int8-static runs the nodes that move or join values in int8 only where
 * they read no value made out of scope (quant_scope.h). */
typedef enum pc_xnn_quant {
  PC_XNN_QUANT_NONE = 0,
  PC_XNN_QUANT_8DA8W = 1,
  PC_XNN_QUANT_8DA4W = 2,
  PC_XNN_QUANT_INT8_WEIGHT = 3,
  PC_XNN_QUANT_INT4_WEIGHT = 4,
  PC_XNN_QUANT_INT8_STATIC = 5
} pc_xnn_quant;

/* XNNPACK's blockwise weights need groups of a multiple of this many inputs. */
#define PC_XNN_QB4_GROUP_MULTIPLE 32

/* What the support check and the builder share about a method. */
typedef struct pc_xnn_ctx {
  pc_graph *g;
  pc_xnn_quant quantize;
  uint32_t group_size; /* 8da4w */
  const pc_range *ranges; /* int8-static: per value below nranges */
  uint32_t nranges;
  pc_mutation m;
  uint32_t *reads;  /* per value: how many times live calls read it */
  /* Per value, filled by pc_xnn_build: the layout (0 NCHW, 1 NHWC) a
   * partition wrote it in (-1: none), and whether a partition reading it
   * from outside wanted it in NHWC. */
  int8_t *native;
  uint8_t *wants_nhwc;
  /* Per value, set by the caller before building (or all 0): the value
   * crosses between partitions in NHWC. */
  uint8_t *handoff;
  /* Per value: made outside the quantization's scope (pc_qscope_foreign). */
  uint8_t *foreign;
  /* pc_xnn_build's per-value maps, kept between partitions (each build
   * resets the entries it touched, so a method costs time linear in its
   * size however many partitions it has). */
  void *maps;
  uint32_t quantized; /* FullyConnected (int8-static: all) nodes the builds quantized */
  uint32_t quantized_4bit; /* of them, with blockwise 4-bit weights */
} pc_xnn_ctx;

PT_FUNC ptera_status pc_xnn_ctx_init(pc_xnn_ctx *c, pc_graph *g);
PT_FUNC void pc_xnn_ctx_free(pc_xnn_ctx *c);

/* The support check (pc_support_fn; ctx is a pc_xnn_ctx). */
PT_FUNC bool pc_xnn_supported(void *ctx, const pc_graph *g, uint32_t node);

/* Builds partition p's blob (in g's arena) and adds the weights it names to
 * g->named. args receives the DelegateCall's arguments (graph value ids:
 * the inputs the blob reads, then p's outputs; at most p->ninputs +
 * p->noutputs) and *nin how many are inputs. */
PT_FUNC ptera_status pc_xnn_build(pc_xnn_ctx *c, const pc_part *p, const uint8_t **blob,
                                  size_t *blob_size, int32_t *args, uint32_t *nin);

typedef struct pc_xnn_stats {
  uint32_t partitions;
  uint32_t delegated_nodes; /* calls now inside a delegate */
  uint32_t cpu_nodes;       /* calls left on the CPU */
  uint32_t nhwc_handoffs;   /* values passed between partitions in NHWC */
  uint32_t quantized;       /* FullyConnected nodes quantized (int8-static: nodes computing in qint8) */
  uint32_t quantized_4bit;  /* of them, with 4-bit weights (8da4w) */
} pc_xnn_stats;

/* Partitions g for XNNPACK and replaces each partition by a DelegateCall
 * (graph.h: a delegate CALL); the other calls stay, in the partitioner's
 * schedule. Nodes are renumbered: run it after the passes. group_size:
 * 8da4w's (a positive multiple of PC_XNN_QB4_GROUP_MULTIPLE). ranges:
 * int8-static's, pc_calibrate's of g as it is now (else unused, may be NULL). */
PT_FUNC ptera_status pc_to_xnnpack(pc_graph *g, pc_xnn_quant quantize, uint32_t group_size,
                                   const pc_range *ranges, pc_xnn_stats *stats);

#endif

/* Graph passes (prefix pc_), one per file in compiler/passes/:
 * fold_bn.c, fuse_linear.c, constprop.c, dedup.c, dce.c, view_elide.c, quant_weight.c (mutation.c:
 * their shared analysis).
 * Each rewrites a pc_graph in place (see graph.h for the rules: no
 * renumbering; rewrite argument ids, turn values into constants, mark nodes
 * removed), adds what it did to *stats (which may be NULL), and returns
 * PTERA_OK or a status with a message in g->err. */
#ifndef PTERA_COMPILER_PASSES_H
#define PTERA_COMPILER_PASSES_H

#include "graph.h"

typedef struct pc_pass_stats {
  uint32_t bn_folded;         /* fold_bn: batch norms folded into a convolution */
  uint32_t fused_nodes;       /* fuse_linear: products rewritten to linear */
  uint32_t transposed_constants; /* fuse_linear: weights stored transposed instead */
  uint32_t folded_nodes;      /* constprop: calls evaluated at compile time */
  uint32_t merged_constants;  /* dedup: constants replaced by an identical one */
  uint64_t merged_bytes;      /* dedup: bytes those constants held */
  uint32_t removed_nodes;     /* dce: calls whose results nothing used */
  uint32_t elided_views;      /* view_elide: reshaping copies turned into et_view */
  uint32_t quantized_weights; /* quant_weight: linear layers given weight-only quantized weights */
} pc_pass_stats;

/* BatchNorm folding: aten::convolution.out (not transposed) with a constant
 * weight and optional constant bias, whose output only an inference-mode
 * batch norm (_native_batch_norm_legit_no_training.out, constant parameters)
 * reads, becomes one convolution with the folded weight and bias (new float
 * constants, computed in double) writing the batch norm's output; the batch
 * norm is removed. float32 only; see fold_bn.c for every condition. */
PT_FUNC ptera_status pc_fold_batch_norm(pc_graph *g, pc_pass_stats *stats);

/* Linear layers for g->opset (opset.h). Where the set has aten::linear.out,
 * mm(x, t(W)) and addmm(b, x, t(W)) (beta = alpha = 1, b of rank 1) become
 * linear(x, W[, b]), reading W without a transposed copy; the transpose is
 * left to pc_dce. Elsewhere the products stay: t(W) of a constant W with
 * fixed bytes becomes the constant W^T (no run-time transpose), and t(W) of
 * a weight replaceable by name becomes permute_copy(W, [1, 0]). W and t(W)
 * must not be mutated. */
PT_FUNC ptera_status pc_fuse_linear(pc_graph *g, pc_pass_stats *stats);

/* Constant propagation: runs, with the runtime's own kernels, every call
 * whose inputs are all constants, and turns its outputs into CONST tensors
 * with static shapes. Never folds a call that reads a mutated value (graph.h)
 * or whose outputs are mutated, method outputs, or not fresh; never folds
 * random or nondeterministic ops. With g->named_consts_replaceable, CONSTs
 * with an fqn count as unknown (never read by a folded call). A fold that
 * would make more than 64 KiB of new constants while a constant it reads
 * stays in use elsewhere is skipped (the program would hold both), and so
 * is one whose outputs exceed the constants it reads by more than 64 MiB
 * (declared shapes are not bounded by the input's size). */
PT_FUNC ptera_status pc_constprop(pc_graph *g, pc_pass_stats *stats);

/* Constant deduplication: CONST tensors with equal dtype, shape, dim order
 * and bytes become one; arguments referring to a duplicate are rewritten to
 * the survivor, whose data is left untouched. Mutated constants are never
 * merged, nor, with g->named_consts_replaceable, constants with an fqn. */
PT_FUNC ptera_status pc_dedup_constants(pc_graph *g, pc_pass_stats *stats);

/* Dead-code elimination: removes calls none of whose written values reach a
 * method output, a later live call, or mutable state (inputs, BUFFERs, or
 * their aliases). Region markers are kept only around live calls. */
PT_FUNC ptera_status pc_dce(pc_graph *g, pc_pass_stats *stats);

/* View elision: view_copy / squeeze_copy / unsqueeze_copy / alias_copy of
 * contiguous data whose sharing nothing can observe (neither side written
 * after production, no BUFFER, the copy not a method output) become
 * executorch_prim::et_view calls aliasing their input. Runs last. */
PT_FUNC ptera_status pc_elide_views(pc_graph *g, pc_pass_stats *stats);

/* Weight-only quantization (int8-weight: bits 8; int4-weight: bits 4 per
 * group of group_size inputs), for the CPU's kernels: the constant float32
 * weight of every linear layer (quant.h) becomes int8 values and fp32
 * scales, dequantized by quantized_decomposed::dequantize_per_channel right
 * before the layer (quant_weight.c for the graph it writes). A layer with a
 * bfloat16 weight, input or bias is left alone with a warning naming it
 * (g->diag); a linear call whose weight is not a constant, and for 4 bits
 * a layer whose input count group_size does not divide, fail naming the
 * node. Layers out of g->qscope's scope (quant_scope.h) stay as they are.
 * Renumbers nodes: runs after the passes above (before view elision). */
PT_FUNC ptera_status pc_quantize_weights(pc_graph *g, uint32_t bits, uint32_t group_size,
                                         pc_pass_stats *stats);

#endif

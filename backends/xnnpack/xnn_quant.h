/* Quantized nodes of the XnnpackBackend (docs/XNNPACK.md §5-§6, §8, §8.1):
 * helpers shared by the static qint8/quint8 nodes and the dynamic qdint8
 * ones, and their entry points. Prefix px_.
 *
 * A qdint8 value (the output of a Convert to qdint8, §6.4) keeps its
 * per-row parameters behind its int8 data: rows x px_qd8_param, starting at
 * the first 8-byte boundary after numel bytes. Rows are the leading
 * rank - num_nonbatch_dims dims flattened (all of it when the count is at
 * least the rank). */
#ifndef PX_XNN_QUANT_H
#define PX_XNN_QUANT_H

#include "cpu/ukernels/gemm_qs8/qs8.h"
#include "xnnpack/xnn.h"

typedef struct px_qd8_param {
  int32_t zero_point;
  float scale; /* dequantization scale, 1 / multiplier */
} px_qd8_param;

static inline bool px_is_q8(uint8_t dt) { return dt == PF_XNN_DT_QINT8 || dt == PF_XNN_DT_QUINT8; }

/* Quantized range of a per-tensor 8-bit datatype. */
static inline int32_t px_qmin(uint8_t dt) { return dt == PF_XNN_DT_QUINT8 ? 0 : -128; }
static inline int32_t px_qmax(uint8_t dt) { return dt == PF_XNN_DT_QUINT8 ? 255 : 127; }

/* Element i of an 8-bit quantized buffer (quint8 unsigned, all others signed). */
static inline int32_t px_qload(uint8_t dt, const void *p, size_t i) {
  return dt == PF_XNN_DT_QUINT8 ? ((const uint8_t *)p)[i] : ((const int8_t *)p)[i];
}

static inline void px_qstore(uint8_t dt, void *p, size_t i, float q) {
  if (dt == PF_XNN_DT_QUINT8) ((uint8_t *)p)[i] = (uint8_t)q;
  else ((int8_t *)p)[i] = (int8_t)q;
}

/* Element (r, c) of a 4-bit value of shape [R, C] stored as rows of
 * ceil(C/2) bytes, even element in the low nibble (§6.2), as 0..15. */
static inline int32_t px_u4load(const uint8_t *p, size_t C, size_t r, size_t c) {
  uint8_t b = p[r * ((C + 1) / 2) + c / 2];
  return (c & 1) ? b >> 4 : b & 15;
}

/* The int8 dot micro-kernel for the selected ISA (kernels/cpu/isa.h). */
PT_FUNC pk_qs8_dot4_fn px_qs8_dot4(void);
/* The qs8 GEMM micro-kernel for the selected ISA and its extensions. */
PT_FUNC pk_qs8_gemm_fn px_qs8_gemm(void);

/* A real bound (output_min/max) quantized with the output's parameters and
 * saturated to the datatype's range; -inf/+inf give the range ends. */
PT_FUNC float px_qbound(float v, float scale, int32_t zero_point, uint8_t dt);

/* Fails unless v is a per-tensor qint8/quint8 value with a zero point in
 * range and a positive finite scale. */
PT_FUNC ptera_status px_want_q8(px_graph *g, const px_value *v, const char *what);

/* Fails unless the requantization scale sx * sw / so (fp32, in that order)
 * lies in (0, 256), as XNNPACK requires. */
PT_FUNC ptera_status px_check_requant(px_graph *g, float sx, float sw, float so, size_t channel);

/* qdint8 values: rows/row length for the current shape, the parameters. */
PT_FUNC ptera_status px_qd8_rows(px_graph *g, const px_value *v, size_t *rows, size_t *rowlen);
PT_FUNC px_qd8_param *px_qd8_params(const px_value *v);
/* Fails unless the qdint8 input vi of the current node was last written by
 * an earlier Convert (so its row parameters exist), and gives its rows. */
PT_FUNC ptera_status px_qd8_input(px_graph *g, uint32_t vi, size_t *rows, size_t *rowlen);

/* Rewrites legacy dq_datatype inputs into input + Convert + qdint8 value
 * (xnn_legacy_dq.c); before the runtime values are built. */
PT_FUNC ptera_status px_expand_legacy_dq(px_graph *g);
/* Convert fp32 -> qdint8 (node_convert_qd8.c) and qint8/quint8 -> qint8/quint8
 * (node_convert_q8.c); px_convert_quant_* picks one of them. */
PT_FUNC ptera_status px_convert_quant_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_convert_quant_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_convert_qd8_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_convert_qd8_run(px_graph *g, const pf_xnn_node *n);
PT_FUNC ptera_status px_convert_q8_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_convert_q8_run(px_graph *g, const pf_xnn_node *n);
/* FullyConnected qdint8 x {qcint8, qcint4, qbint4} -> fp32 (node_fc_qd8.c). */
PT_FUNC ptera_status px_fc_qd8_check(px_graph *g, const pf_xnn_node *n, size_t oc);
PT_FUNC void px_fc_qd8_run(px_graph *g, const pf_xnn_node *n);
/* Packs the filter into qs8 GEMM panels (init), and the scratch the run takes. */
PT_FUNC ptera_status px_fc_qd8_prepare(px_graph *g, const pf_xnn_node *n);
PT_FUNC size_t px_fc_qd8_workspace(const px_graph *g, const pf_xnn_node *n);
/* Conv2d, DepthwiseConv2d, ConvTranspose2d with qint8/quint8 or qdint8
 * input (node_conv_quant.c). */
PT_FUNC ptera_status px_conv_quant_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_conv_quant_run(px_graph *g, const pf_xnn_node *n);
/* Add, Subtract, Multiply, Minimum, Maximum on qint8/quint8 (node_binary_quant.c). */
PT_FUNC ptera_status px_binary_quant_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_binary_quant_run(px_graph *g, const pf_xnn_node *n);
/* AvgPooling2d, MaxPooling2d on qint8/quint8 (node_pool_quant.c). */
PT_FUNC ptera_status px_pool_quant_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_pool_quant_run(px_graph *g, const pf_xnn_node *n);
/* Clamp, LeakyReLU, ELU, Hardswish, Sigmoid, Tanh, Negate, Abs, Square on
 * qint8/quint8 (node_unary_quant.c). */
PT_FUNC ptera_status px_unary_quant_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_unary_quant_run(px_graph *g, const pf_xnn_node *n);
/* StaticConstantPad on qint8/quint8 (node_pad_quant.c). */
PT_FUNC ptera_status px_pad_quant_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_pad_quant_run(px_graph *g, const pf_xnn_node *n);
/* GlobalAvgPooling2d on qint8/quint8 (node_gap_quant.c). */
PT_FUNC ptera_status px_gap_quant_reshape(px_graph *g, const pf_xnn_node *n);
PT_FUNC void px_gap_quant_run(px_graph *g, const pf_xnn_node *n);

#endif

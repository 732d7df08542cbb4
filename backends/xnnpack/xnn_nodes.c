/* The node table: which family reshapes and runs each XNNPACK node kind.
 * Kinds with quantized variants pick the family by the input's (Convert:
 * the output's) datatype. */
#include "xnnpack/xnn_quant.h"

static bool quant_in(const px_graph *g, const pf_xnn_node *n) {
  uint8_t dt = g->v[n->in[0]].dt;
  return px_is_q8(dt) || dt == PF_XNN_DT_QDINT8;
}

#define BY_DTYPE(name, test, qreshape, qrun, reshape, run)                                                   \
  static ptera_status name##_reshape(px_graph *g, const pf_xnn_node *n) {                                    \
    return test(g, n) ? qreshape(g, n) : reshape(g, n);                                                      \
  }                                                                                                          \
  static void name##_run(px_graph *g, const pf_xnn_node *n) {                                                \
    if (test(g, n)) qrun(g, n);                                                                              \
    else run(g, n);                                                                                          \
  }

/* Convert to qdint8, or between two 8-bit quantized datatypes. */
static bool quant_convert(const px_graph *g, const pf_xnn_node *n) {
  uint8_t o = g->v[n->out[0]].dt;
  return o == PF_XNN_DT_QDINT8 || (px_is_q8(o) && px_is_q8(g->v[n->in[0]].dt));
}

BY_DTYPE(conv, quant_in, px_conv_quant_reshape, px_conv_quant_run, px_conv2d_reshape, px_conv2d_run)
BY_DTYPE(dwconv, quant_in, px_conv_quant_reshape, px_conv_quant_run, px_conv2d_reshape, px_dwconv2d_run)
BY_DTYPE(deconv, quant_in, px_conv_quant_reshape, px_conv_quant_run, px_deconv2d_reshape, px_deconv2d_run)
BY_DTYPE(binary, quant_in, px_binary_quant_reshape, px_binary_quant_run, px_binary_reshape, px_binary_run)
BY_DTYPE(pool, quant_in, px_pool_quant_reshape, px_pool_quant_run, px_pool_reshape, px_pool_run)
BY_DTYPE(gap, quant_in, px_gap_quant_reshape, px_gap_quant_run, px_gap_reshape, px_gap_run)
BY_DTYPE(unary, quant_in, px_unary_quant_reshape, px_unary_quant_run, px_unary_reshape, px_unary_run)
BY_DTYPE(pad, quant_in, px_pad_quant_reshape, px_pad_quant_run, px_pad_reshape, px_pad_run)
BY_DTYPE(convert, quant_convert, px_convert_quant_reshape, px_convert_quant_run, px_convert_reshape, px_convert_run)

/* The fp32 convolutions pack their filters at init; the quantized ones read
 * theirs as stored. */
#define FLOAT_ONLY(name, prepare) \
  static ptera_status name(px_graph *g, const pf_xnn_node *n) { return quant_in(g, n) ? PTERA_OK : prepare(g, n); }
FLOAT_ONLY(conv_prepare, px_conv2d_prepare)
FLOAT_ONLY(dwconv_prepare, px_dwconv2d_prepare)
FLOAT_ONLY(deconv_prepare, px_deconv2d_prepare)

static const px_node_impl k_impl[PF_XNN_NODE_MAX + 1] = {
    [PF_XNN_ADD] = {binary_reshape, binary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_SUBTRACT] = {binary_reshape, binary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_MULTIPLY] = {binary_reshape, binary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_DIV] = {px_binary_reshape, px_binary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_MINIMUM] = {binary_reshape, binary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_MAXIMUM] = {binary_reshape, binary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_PRELU] = {px_binary_reshape, px_binary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_CLAMP] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_SIGMOID] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_FLOOR] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_CEILING] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_SQRT] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_RSQRT] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_NEGATE] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_SQUARE] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_ABS] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_HARDSWISH] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_ELU] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_LEAKY_RELU] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_LOG] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_GELU] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_TANH] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_EXP] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_SIN] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_COS] = {unary_reshape, unary_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_COPY] = {px_reshape_reshape, px_copy_run, NULL, PX_WIDEN_NONE},
    [PF_XNN_STATIC_RESHAPE] = {px_reshape_reshape, px_copy_run, NULL, PX_WIDEN_NONE},
    [PF_XNN_STATIC_TRANSPOSE] = {px_transpose_reshape, px_transpose_run, NULL, PX_WIDEN_NONE},
    [PF_XNN_STATIC_SLICE] = {px_slice_reshape, px_slice_run, NULL, PX_WIDEN_NONE},
    [PF_XNN_CONSTANT_PAD] = {pad_reshape, pad_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_CONCAT2] = {px_concat_reshape, px_concat_run, NULL, PX_WIDEN_NONE},
    [PF_XNN_CONCAT3] = {px_concat_reshape, px_concat_run, NULL, PX_WIDEN_NONE},
    [PF_XNN_CONCAT4] = {px_concat_reshape, px_concat_run, NULL, PX_WIDEN_NONE},
    [PF_XNN_CONCAT5] = {px_concat_reshape, px_concat_run, NULL, PX_WIDEN_NONE},
    [PF_XNN_SOFTMAX] = {px_softmax_reshape, px_softmax_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_CONV2D] = {conv_reshape, conv_run, conv_prepare, PX_WIDEN_ACTS},
    [PF_XNN_DEPTHWISE_CONV2D] = {dwconv_reshape, dwconv_run, dwconv_prepare, PX_WIDEN_ACTS},
    [PF_XNN_CONV_TRANSPOSE2D] = {deconv_reshape, deconv_run, deconv_prepare, PX_WIDEN_ACTS},
    [PF_XNN_FULLY_CONNECTED] = {px_fc_reshape, px_fc_run, px_fc_prepare, PX_WIDEN_ACTS},
    [PF_XNN_BMM] = {px_bmm_reshape, px_bmm_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_AVG_POOL] = {pool_reshape, pool_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_MAX_POOL] = {pool_reshape, pool_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_ARGMAX_POOL] = {px_pool_reshape, px_pool_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_GLOBAL_AVG_POOL] = {gap_reshape, gap_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_RESIZE_BILINEAR] = {px_resize_reshape, px_resize_run, NULL, PX_WIDEN_ALL},
    [PF_XNN_CONVERT] = {convert_reshape, convert_run, NULL, PX_WIDEN_NONE},
};

const px_node_impl *px_node_impl_for(unsigned kind) {
  return kind <= PF_XNN_NODE_MAX && k_impl[kind].reshape ? &k_impl[kind] : NULL;
}

# The XnnpackBackend (XNNGraph delegate) on ptera's own kernels.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  node_binary.c
  node_binary_quant.c
  node_bmm.c
  node_concat.c
  node_conv2d.c
  node_conv_quant.c
  node_convert.c
  node_convert_q8.c
  node_convert_qd8.c
  node_deconv2d.c
  node_dwconv2d.c
  node_fc.c
  node_fc_qd8.c
  node_fc_quant.c
  node_gap.c
  node_gap_quant.c
  node_pad.c
  node_pad_quant.c
  node_pool.c
  node_pool_quant.c
  node_reshape.c
  node_resize.c
  node_slice.c
  node_softmax.c
  node_transpose.c
  node_unary.c
  node_unary_quant.c
  xnn_backend.c
  xnn_layout.c
  xnn_legacy_dq.c
  xnn_nodes.c
  xnn_quant.c
  xnn_util.c
)

# The XnnpackBackend (XNNGraph delegate) on ptera's own kernels.
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  gemm_ref.c
  node_binary.c
  node_bmm.c
  node_concat.c
  node_conv2d.c
  node_convert.c
  node_deconv2d.c
  node_fc.c
  node_fc_quant.c
  node_gap.c
  node_pad.c
  node_pool.c
  node_reshape.c
  node_resize.c
  node_slice.c
  node_softmax.c
  node_transpose.c
  node_unary.c
  xnn_backend.c
  xnn_nodes.c
  xnn_util.c
)

# The Cortex-M kernel library (cortex_m::* ops, CMSIS-NN semantics).
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  cm_util.c
  fixed_point.c
  op_dequantize_per_tensor.c
  op_maximum.c
  op_minimum.c
  op_pad.c
  op_quantize_per_tensor.c
  op_quantized_activation.c
  op_quantized_add.c
  op_quantized_avg_pool2d.c
  op_quantized_batch_matmul.c
  op_quantized_conv2d.c
  op_quantized_depthwise_conv2d.c
  op_quantized_div.c
  op_quantized_linear.c
  op_quantized_max_pool2d.c
  op_quantized_mul.c
  op_quantized_transpose_conv2d.c
  op_softmax.c
  op_transpose.c
)

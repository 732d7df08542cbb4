# The Cadence kernel library (cadence::* ops).
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  op_dequantize_per_tensor.c
  op_quantize_per_tensor.c
  op_quantized_conv2d_nchw.c
)

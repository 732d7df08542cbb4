# The quantized kernel library (quantized_decomposed, quantized ops).
# Every .c file of this directory is listed here (paths relative to it);
# configuring fails on one that is not (cmake/layers.cmake).
set(SOURCES
  embedding_xbit.c
  op_add.c
  op_choose_qparams.c
  op_dequantize.c
  op_dequantize_per_channel.c
  op_dequantize_per_token.c
  op_embedding_2bit.c
  op_embedding_4bit.c
  op_embedding_byte.c
  op_mixed_linear.c
  op_mixed_mm.c
  op_quantize.c
  op_quantize_per_channel.c
  op_quantize_per_token.c
  quant_group.c
  quant_util.c
)

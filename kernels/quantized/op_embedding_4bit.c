/* quantized_decomposed::embedding_4bit.out(Tensor weight, Tensor weight_scales,
 * Tensor? weight_zero_points, int weight_quant_min, int weight_quant_max,
 * Tensor indices, *, Tensor(a!) out) and .dtype_out(..., Tensor indices, *,
 * ScalarType? dtype=None, Tensor(a!) out): embedding lookup in a 4-bit packed
 * table (packing in quantized/embedding_xbit.c). */
#include "builtin.h"
#include "quantized/embedding_xbit.h"

ptera_status pk_embedding_4bit_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::embedding_4bit.out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  return pk_embedding_xbit(ctx, op, args, false, 4);
}

ptera_status pk_embedding_4bit_dtype_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::embedding_4bit.dtype_out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  return pk_embedding_xbit(ctx, op, args, true, 4);
}

/* aten::bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
 * aten::bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
 * Integer and Bool dtypes only, PyTorch type promotion and broadcasting. */
#include "builtin.h"
#include "portable/util/bitwise.h"

ptera_status pk_bitwise_or_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_bitwise_kernel(ctx, "aten::bitwise_or.Tensor_out", args, nargs, false, PK_BIT_OR);
}

ptera_status pk_bitwise_or_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_bitwise_kernel(ctx, "aten::bitwise_or.Scalar_out", args, nargs, true, PK_BIT_OR);
}

/* aten::bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
 * aten::bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
 * Integer and Bool dtypes only, PyTorch type promotion and broadcasting. */
#include "builtin.h"
#include "portable/util/bitwise.h"

ptera_status pk_bitwise_xor_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_bitwise_kernel(ctx, "aten::bitwise_xor.Tensor_out", args, nargs, false, PK_BIT_XOR);
}

ptera_status pk_bitwise_xor_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_bitwise_kernel(ctx, "aten::bitwise_xor.Scalar_out", args, nargs, true, PK_BIT_XOR);
}

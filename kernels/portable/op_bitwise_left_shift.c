/* aten::bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
 * aten::bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
 * Integer dtypes only (PyTorch has no Bool shift). A shift count below 0 or at
 * least the common dtype's width gives 0, as in PyTorch 2.x. */
#include "builtin.h"
#include "portable/util/bitwise.h"

ptera_status pk_bitwise_left_shift_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_bitwise_kernel(ctx, "aten::bitwise_left_shift.Tensor_out", args, nargs, false, PK_BIT_SHL);
}

ptera_status pk_bitwise_left_shift_tensor_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                     size_t nargs) {
  return pk_bitwise_kernel(ctx, "aten::bitwise_left_shift.Tensor_Scalar_out", args, nargs, true,
                           PK_BIT_SHL);
}

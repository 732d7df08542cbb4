/* aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)
 * aten::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out)
 * Bool operands are rejected (PyTorch's subtraction rule). */
#include "builtin.h"
#include "portable/util/binop.h"

ptera_status pk_sub_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_alpha_kernel(ctx, "aten::sub.out", args, nargs, false, &pk_binop_sub,
                               PK_BINOP_NO_BOOL_ARGS);
}

ptera_status pk_sub_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_alpha_kernel(ctx, "aten::sub.Scalar_out", args, nargs, true, &pk_binop_sub,
                               PK_BINOP_NO_BOOL_ARGS);
}

/* aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)
 * aten::add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/binop.h"

ptera_status pk_add_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_alpha_kernel(ctx, "aten::add.out", args, nargs, false, &pk_binop_add, 0);
}

ptera_status pk_add_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_alpha_kernel(ctx, "aten::add.Scalar_out", args, nargs, true, &pk_binop_add, 0);
}

/* aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out)
 * aten::mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/binop.h"

ptera_status pk_mul_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_tt_kernel(ctx, "aten::mul.out", args, nargs, "other", &pk_binop_mul, 0, "");
}

ptera_status pk_mul_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_ts_kernel(ctx, "aten::mul.Scalar_out", args, nargs, "other", &pk_binop_mul, 0, "");
}

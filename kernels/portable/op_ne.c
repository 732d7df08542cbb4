/* aten::ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
 * aten::ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
 * Compared in the promoted type (after broadcasting); out of any real or bool dtype gets 1/0. */
#include "builtin.h"
#include "portable/util/compare.h"

ptera_status pk_ne_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_compare_tensor_kernel(ctx, "aten::ne.Tensor_out", args, nargs, PK_CMP_NE);
}

ptera_status pk_ne_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_compare_scalar_kernel(ctx, "aten::ne.Scalar_out", args, nargs, PK_CMP_NE);
}

/* aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out):
 * other - alpha * self, i.e. sub with the operands swapped. */
#include "builtin.h"
#include "portable/util/binop.h"

ptera_status pk_rsub_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_alpha_kernel(ctx, "aten::rsub.Scalar_out", args, nargs, true, &pk_binop_sub,
                               PK_BINOP_SWAP | PK_BINOP_NO_BOOL_ARGS);
}

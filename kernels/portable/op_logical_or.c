/* aten::logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/logical.h"

ptera_status pk_logical_or_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_logical_kernel(ctx, "aten::logical_or.out", args, nargs, PK_LOGIC_OR);
}

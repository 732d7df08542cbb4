/* aten::alias_copy.out(Tensor self, *, Tensor(a!) out): a copy of self (same dtype). */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_alias_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_copy_kernel(ctx, "aten::alias_copy.out", args, nargs);
}

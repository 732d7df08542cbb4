/* aten::amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out):
 * the min over dim (all dims when empty); NaN propagates; out has self's dtype. */
#include "builtin.h"
#include "portable/util/extreme.h"

ptera_status pk_amin_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_amax_amin(ctx, "aten::amin.out", args, nargs, false);
}

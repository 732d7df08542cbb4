/* aten::amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out):
 * the max over dim (all dims when empty); NaN propagates; out has self's dtype. */
#include "builtin.h"
#include "portable/util/extreme.h"

ptera_status pk_amax_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_amax_amin(ctx, "aten::amax.out", args, nargs, true);
}

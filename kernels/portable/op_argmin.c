/* aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out):
 * index (Long) of the first minimum; NaN counts as the minimum. dim=None reduces
 * the flattened tensor. */
#include "builtin.h"
#include "portable/util/extreme.h"

ptera_status pk_argmin_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_argmax_argmin(ctx, "aten::argmin.out", args, nargs, false);
}

/* aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out):
 * index (Long) of the first maximum; NaN counts as the maximum. dim=None reduces
 * the flattened tensor (keepdim then keeps every dim as 1). */
#include "builtin.h"
#include "portable/util/extreme.h"

ptera_status pk_argmax_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_argmax_argmin(ctx, "aten::argmax.out", args, nargs, true);
}

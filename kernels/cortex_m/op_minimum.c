/* cortex_m::minimum.out(Tensor self, Tensor other, *, Tensor(a!) out): the smaller of two int8
 * tensors broadcast together (rank <= 4), out resized to the broadcast shape
 * (docs/CORTEX_M.md §3.7). */
#include "builtin.h"
#include "cortex_m/cm_util.h"

ptera_status pk_cm_minimum_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_cm_extreme(ctx, "cortex_m::minimum.out", args, nargs, false);
}

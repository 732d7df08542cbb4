/* aten::min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min,
 *   Tensor(b!) min_indices) -> (values, indices): the min along dim and the Long index of
 *   its first occurrence (NaN propagates, its first index wins).
 * aten::min.unary_out(Tensor self, *, Tensor(a!) out): the min of all elements (0-d). */
#include "builtin.h"
#include "portable/util/extreme.h"

ptera_status pk_min_dim_min(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_max_min_dim(ctx, "aten::min.dim_min", args, nargs, false);
}

ptera_status pk_min_unary_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_max_min_unary(ctx, "aten::min.unary_out", args, nargs, false);
}

/* aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max,
 *   Tensor(b!) max_values) -> (values, indices): the max along dim and the Long index of
 *   its first occurrence (NaN propagates, its first index wins).
 * aten::max.unary_out(Tensor self, *, Tensor(a!) out): the max of all elements (0-d). */
#include "builtin.h"
#include "portable/util/extreme.h"

ptera_status pk_max_dim_max(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_max_min_dim(ctx, "aten::max.dim_max", args, nargs, true);
}

ptera_status pk_max_unary_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_max_min_unary(ctx, "aten::max.unary_out", args, nargs, true);
}

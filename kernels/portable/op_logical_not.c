/* aten::logical_not.out(Tensor self, *, Tensor(a!) out): x == 0 as 1/0 into out of any
 * real or bool dtype (NaN is true, so gives 0). */
#include "builtin.h"
#include "portable/util/pk.h"

static bool is_zero(double x, int64_t i, bool is_float) {
  return is_float ? x == 0.0 : i == 0;
}

ptera_status pk_logical_not_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_predicate_kernel(ctx, "aten::logical_not.out", args, nargs, is_zero);
}

/* aten::isnan.out(Tensor self, *, Tensor(a!) out): real or bool self; out of any real or
 * bool dtype gets 1/0 (integers and bool give 0). */
#include <math.h>

#include "builtin.h"
#include "portable/util/pk.h"

static bool x_is_nan(double x, int64_t i, bool is_float) {
  (void)i;
  return is_float && isnan(x);
}

ptera_status pk_isnan_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_predicate_kernel(ctx, "aten::isnan.out", args, nargs, x_is_nan);
}

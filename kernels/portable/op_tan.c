/* aten::tan.out(Tensor self, *, Tensor(a!) out): floating result, computed in double. */
#include "builtin.h"
#include "portable/util/pk.h"

static double f(double x) { return tan(x); }

ptera_status pk_tan_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_float_kernel(ctx, "aten::tan.out", args, nargs, f);
}

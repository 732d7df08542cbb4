/* aten::log.out(Tensor self, *, Tensor(a!) out): floating result, computed in double. */
#include "builtin.h"
#include "portable/util/pk.h"

static double f(double x) { return log(x); }

ptera_status pk_log_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_float_kernel(ctx, "aten::log.out", args, nargs, f);
}

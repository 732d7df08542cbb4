/* aten::exp.out(Tensor self, *, Tensor(a!) out): floating result, computed in double. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "cpu/vmath.h"

static double f(double x) { return exp(x); }

ptera_status pk_exp_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_float_kernel_fast(ctx, "aten::exp.out", args, nargs, f, PK_VU_EXP);
}

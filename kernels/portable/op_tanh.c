/* aten::tanh.out(Tensor self, *, Tensor(a!) out): floating result, computed in double. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "cpu/vmath.h"

static double f(double x) { return tanh(x); }

ptera_status pk_tanh_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_float_kernel_fast(ctx, "aten::tanh.out", args, nargs, f, PK_VU_TANH);
}

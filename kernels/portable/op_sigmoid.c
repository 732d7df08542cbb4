/* aten::sigmoid.out(Tensor self, *, Tensor(a!) out): 1 / (1 + exp(-x)), floating result. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "cpu/vmath.h"

static double f(double x) { return 1.0 / (1.0 + exp(-x)); }

ptera_status pk_sigmoid_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_float_kernel_fast(ctx, "aten::sigmoid.out", args, nargs, f, PK_VU_SIGMOID);
}

/* aten::relu.out(Tensor self, *, Tensor(a!) out): max(x, 0); NaN propagates (as in PyTorch). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "cpu/vmath.h"

static double relu_f(double x) { return (x > 0.0 || x != x) ? x : 0.0; }
static int64_t relu_i(int64_t x) { return x > 0 ? x : 0; }

ptera_status pk_relu_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_real_kernel_fast(ctx, "aten::relu.out", args, nargs, relu_f, relu_i, false,
                                   PK_VU_RELU);
}

/* aten::trunc.out(Tensor self, *, Tensor(a!) out): rounds toward zero keeping the dtype; integers are unchanged; Bool is rejected. */
#include "builtin.h"
#include "portable/util/pk.h"

static double ff(double x) { return trunc(x); }
static int64_t fi(int64_t x) { return x; }

ptera_status pk_trunc_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_real_kernel(ctx, "aten::trunc.out", args, nargs, ff, fi, false);
}

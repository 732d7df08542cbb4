/* aten::abs.out(Tensor self, *, Tensor(a!) out): |x| keeping the dtype (integers wrap: abs(INT_MIN) == INT_MIN); Bool is rejected. */
#include "builtin.h"
#include "portable/util/pk.h"

static double ff(double x) { return fabs(x); }
static int64_t fi(int64_t x) { return x < 0 ? pk_wsub(0, x) : x; }

ptera_status pk_abs_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_real_kernel(ctx, "aten::abs.out", args, nargs, ff, fi, false);
}

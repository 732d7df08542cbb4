/* aten::sign.out(Tensor self, *, Tensor(a!) out): -1, 0 or 1 keeping the dtype (NaN stays NaN, -0.0 gives 0); Bool is unchanged. */
#include "builtin.h"
#include "portable/util/pk.h"

static double ff(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x == 0.0 ? 0.0 : x; }
static int64_t fi(int64_t x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

ptera_status pk_sign_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_unary_real_kernel(ctx, "aten::sign.out", args, nargs, ff, fi, true);
}

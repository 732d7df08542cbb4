/* aten::maximum.out(Tensor self, Tensor other, *, Tensor(a!) out): elementwise
 * maximum with type promotion; NaN propagates. */
#include "builtin.h"
#include "portable/util/binop.h"

static float f32(float a, float b, float al) {
  (void)al;
  if (a != a || b != b) return NAN;
  return b > a ? b : a;
}
static double f64(double a, double b, double al) {
  (void)al;
  if (a != a || b != b) return NAN;
  return b > a ? b : a;
}
static bool i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  (void)al;
  *r = b > a ? b : a;
  return true;
}
static const pk_binop fn = {f32, f64, i64, 0};

ptera_status pk_maximum_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_tt_kernel(ctx, "aten::maximum.out", args, nargs, "other", &fn, 0, "");
}

/* aten::remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
 * aten::remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
 * Python-style remainder (sign of other); integer division by zero is an error; no Bool. */
#include "builtin.h"
#include "portable/util/binop.h"

static float f32(float a, float b, float al) {
  (void)al;
  float m = fmodf(a, b);
  if (m != 0.0f && ((b < 0.0f) != (m < 0.0f))) m += b;
  return m;
}
static double f64(double a, double b, double al) {
  (void)al;
  double m = fmod(a, b);
  if (m != 0.0 && ((b < 0.0) != (m < 0.0))) m += b;
  return m;
}
static bool i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  (void)al;
  if (b == 0) return false;
  *r = pk_pymod_i64(a, b);
  return true;
}
static const pk_binop fn = {f32, f64, i64, 0};

ptera_status pk_remainder_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_tt_kernel(ctx, "aten::remainder.Tensor_out", args, nargs, "other", &fn,
                            PK_BINOP_NO_BOOL, "integer division by zero");
}

ptera_status pk_remainder_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_ts_kernel(ctx, "aten::remainder.Scalar_out", args, nargs, "other", &fn,
                            PK_BINOP_NO_BOOL, "integer division by zero");
}

/* aten::fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out)
 * aten::fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
 * C-style remainder (sign of self); integer division by zero is an error; no Bool. */
#include "builtin.h"
#include "portable/util/binop.h"

static float f32(float a, float b, float al) { (void)al; return fmodf(a, b); }
static double f64(double a, double b, double al) { (void)al; return fmod(a, b); }
static bool i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  (void)al;
  if (b == 0) return false;
  *r = pk_cmod_i64(a, b);
  return true;
}
static const pk_binop fn = {f32, f64, i64, 0};

ptera_status pk_fmod_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_tt_kernel(ctx, "aten::fmod.Tensor_out", args, nargs, "other", &fn,
                            PK_BINOP_NO_BOOL, "integer division by zero");
}

ptera_status pk_fmod_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_ts_kernel(ctx, "aten::fmod.Scalar_out", args, nargs, "other", &fn,
                            PK_BINOP_NO_BOOL, "integer division by zero");
}

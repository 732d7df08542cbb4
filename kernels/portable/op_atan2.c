/* aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out): atan2(self, other);
 * integral and bool inputs are computed in Float, out must be floating. */
#include "builtin.h"
#include "portable/util/binop.h"

static float f32(float a, float b, float al) { (void)al; return atan2f(a, b); }
static double f64(double a, double b, double al) { (void)al; return atan2(a, b); }
static bool i64(int64_t a, int64_t b, int64_t al, int64_t *r) { (void)a; (void)b; (void)al; *r = 0; return true; }
static const pk_binop fn = {f32, f64, i64, 0};

ptera_status pk_atan2_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_tt_kernel(ctx, "aten::atan2.out", args, nargs, "other", &fn, PK_BINOP_FLOAT, "");
}

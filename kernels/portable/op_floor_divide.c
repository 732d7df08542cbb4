/* aten::floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out): division
 * rounded toward negative infinity (PyTorch's div_floor); integer division by
 * zero is an error; Bool is not supported. */
#include "builtin.h"
#include "portable/util/binop.h"

static float f32(float a, float b, float al) { (void)al; return pk_floordiv_f32(a, b); }
static double f64(double a, double b, double al) { (void)al; return pk_floordiv_f64(a, b); }
static bool i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  (void)al;
  if (b == 0) return false;
  *r = pk_floordiv_i64(a, b);
  return true;
}
static const pk_binop fn = {f32, f64, i64, 0};

ptera_status pk_floor_divide_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_tt_kernel(ctx, "aten::floor_divide.out", args, nargs, "other", &fn,
                            PK_BINOP_NO_BOOL, "integer division by zero");
}

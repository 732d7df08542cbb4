/* aten::div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out)
 * aten::div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
 * aten::div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out)
 * With a rounding mode ("trunc", "floor") the result keeps the promoted dtype
 * (Bool unsupported; integer division by zero is an error). */
/* aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out): true division;
 * integer and bool inputs divide in float. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/binop.h"
#include "cpu/vmath.h"

static float true_f32(float a, float b, float al) { (void)al; return a / b; }
static double true_f64(double a, double b, double al) { (void)al; return a / b; }
static bool never_i64(int64_t a, int64_t b, int64_t al, int64_t *r) { (void)a; (void)b; (void)al; *r = 0; return true; }
static const pk_binop true_fn = {true_f32, true_f64, never_i64, 1 + PK_VB_DIV};

ptera_status pk_div_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_tt_kernel(ctx, "aten::div.out", args, nargs, "other", &true_fn, PK_BINOP_FLOAT, "");
}

static float trunc_f32(float a, float b, float al) { (void)al; return truncf(a / b); }
static double trunc_f64(double a, double b, double al) { (void)al; return trunc(a / b); }
static bool trunc_i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  (void)al;
  if (b == 0) return false;
  *r = pk_truncdiv_i64(a, b);
  return true;
}
static const pk_binop trunc_fn = {trunc_f32, trunc_f64, trunc_i64, 0};

static float floor_f32(float a, float b, float al) { (void)al; return pk_floordiv_f32(a, b); }
static double floor_f64(double a, double b, double al) { (void)al; return pk_floordiv_f64(a, b); }
static bool floor_i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  (void)al;
  if (b == 0) return false;
  *r = pk_floordiv_i64(a, b);
  return true;
}
static const pk_binop floor_fn = {floor_f32, floor_f64, floor_i64, 0};

/* b is other (a Tensor, or a Scalar wrapped as 0-d); mode 0/1/2. */
static ptera_status div_mode_run(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                                 const ptera_tensor *b, ptera_tensor *out, int common, int mode) {
  if (mode == 0) {
    if (!pk_is_float(common)) {
      PK_TRY(pk_check_float(ctx, op, "out", out));
      common = PTERA_DTYPE_FLOAT;
    }
    return pk_binop_run(ctx, op, a, b, out, common, NULL, &true_fn, "");
  }
  PK_TRY(pk_binop_no_bool(ctx, op, common));
  return pk_binop_run(ctx, op, a, b, out, common, NULL, mode == 1 ? &trunc_fn : &floor_fn,
                      "integer division by zero");
}

ptera_status pk_div_out_mode(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::div.out_mode";
  ptera_tensor *a, *b, *out;
  int common, mode;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_get_rounding_mode(ctx, op, args, 2, &mode));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_binary_prepare(ctx, op, a, b, out, &common));
  return div_mode_run(ctx, op, a, b, out, common, mode);
}

static ptera_status div_scalar(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               int mode_i) {
  ptera_tensor *a, *out;
  pk_scalar s;
  int common, mode = 0;
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "other", &s));
  if (mode_i >= 0) PK_TRY(pk_get_rounding_mode(ctx, op, args, (size_t)mode_i, &mode));
  PK_TRY(pk_get_tensor(ctx, op, args, mode_i >= 0 ? 3 : 2, "out", &out));
  PK_TRY(pk_scalar_prepare(ctx, op, a, &s, out, &common));
  pk_scalar_tensor st;
  return div_mode_run(ctx, op, a, pk_scalar_tensor_init(&st, &s), out, common, mode);
}

ptera_status pk_div_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  PK_TRY(pk_check_nargs(ctx, "aten::div.Scalar_out", nargs, 4));
  return div_scalar(ctx, "aten::div.Scalar_out", args, -1);
}

ptera_status pk_div_scalar_mode_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  PK_TRY(pk_check_nargs(ctx, "aten::div.Scalar_mode_out", nargs, 5));
  return div_scalar(ctx, "aten::div.Scalar_mode_out", args, 2);
}

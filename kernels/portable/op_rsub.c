/* aten::rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out):
 * other - alpha * self. Bool results are not supported (PyTorch's subtraction rule). */
#include "builtin.h"
#include "portable/util/binop.h"

static float f32(float a, float b, float al) {
  float y = al * a; /* separate statement: no FMA */
  return b - y;
}
static double f64(double a, double b, double al) {
  double y = al * a;
  return b - y;
}
static bool i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  *r = pk_wsub(b, pk_wmul(al, a));
  return true;
}
static const pk_binop fn = {f32, f64, i64};

ptera_status pk_rsub_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::rsub.Scalar_out";
  ptera_tensor *a, *out;
  pk_scalar s, alpha;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "other", &s));
  PK_TRY(pk_get_scalar(ctx, op, args, 2, "alpha", &alpha));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_scalar_prepare(ctx, op, a, &s, out, &common));
  if (a->dtype == PTERA_DTYPE_BOOL || s.tag == PTERA_TAG_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: subtraction with a Bool 'self' or 'other' is not supported", op);
  PK_TRY(pk_check_alpha(ctx, op, &alpha, common));
  pk_scalar_tensor st;
  return pk_binop_run(ctx, op, a, pk_scalar_tensor_init(&st, &s), out, common, &alpha, &fn, "");
}

/* aten::pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out)
 * aten::pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out)
 * Integer negative exponents from a tensor follow PyTorch: 1 -> 1, -1 -> +-1, else 0. */
/* aten::pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/binop.h"
#include "cpu/vmath.h"
#include "portable/util/fast_f32.h"

static int64_t ipow(int64_t base, int64_t e) {
  int64_t r = 1;
  while (e > 0) {
    if (e & 1) r = pk_wmul(r, base);
    base = pk_wmul(base, base);
    e >>= 1;
  }
  return r;
}

ptera_status pk_pow_tensor_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::pow.Tensor_Scalar_out";
  ptera_tensor *a, *out;
  pk_scalar e;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "exponent", &e));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_scalar_prepare(ctx, op, a, &e, out, &common));
  if (common == PTERA_DTYPE_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: pow of a Bool tensor by a Bool exponent is not supported", op);
  if (!pk_is_float(common) && pk_scalar_i64(&e) < 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: integers to negative integer powers are not allowed "
                             "('self' is %s, exponent %lld)",
                             op, ptera_dtype_name(a->dtype), (long long)pk_scalar_i64(&e));
  /* x^2 = x*x, correctly rounded (the RMSNorm square) */
  if (pk_scalar_f64(&e) == 2.0 && a->dtype == PTERA_DTYPE_FLOAT &&
      pk_fast_binary_f32(ctx, PK_VB_MUL, a, a, out, common))
    return PTERA_OK;
  pk_iter it;
  const ptera_tensor *ins[1] = {a};
  pk_iter_init(&it, out, ins, 1);
  int ad = a->dtype, od = out->dtype;
  switch (pk_compute_type(common)) {
    case PK_CT_F32: {
      float ev = (float)pk_scalar_f64(&e);
      PK_ITER_FOR(it) {
        float x = pk_load_f32(PK_PTR(a->data, it, 1), ad);
        pk_store_f32(PK_PTR(out->data, it, 0), od, powf(x, ev));
      }
      break;
    }
    case PK_CT_F64: {
      double ev = pk_scalar_f64(&e);
      PK_ITER_FOR(it) {
        pk_store_f64(PK_PTR(out->data, it, 0), od, pow(pk_load_f64(PK_PTR(a->data, it, 1), ad), ev));
      }
      break;
    }
    case PK_CT_I64: {
      int64_t ev = pk_scalar_i64(&e);
      PK_ITER_FOR(it) {
        int64_t x = pk_load_i64(PK_PTR(a->data, it, 1), ad);
        pk_store_i64(PK_PTR(out->data, it, 0), od, pk_wrap_to(ipow(x, ev), common));
      }
      break;
    }
  }
  return PTERA_OK;
}

static float tt_f32(float a, float b, float al) { (void)al; return powf(a, b); }
static double tt_f64(double a, double b, double al) { (void)al; return pow(a, b); }
static bool tt_i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  (void)al;
  if (b < 0) {
    *r = a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
  } else {
    *r = ipow(a, b);
  }
  return true;
}
static const pk_binop pow_fn = {tt_f32, tt_f64, tt_i64, 0};

ptera_status pk_pow_tensor_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_binop_tt_kernel(ctx, "aten::pow.Tensor_Tensor_out", args, nargs, "exponent", &pow_fn,
                            PK_BINOP_NO_BOOL, "");
}

ptera_status pk_pow_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::pow.Scalar_out";
  ptera_tensor *e, *out;
  pk_scalar s;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_scalar(ctx, op, args, 0, "self", &s));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "exponent", &e));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "exponent", e));
  common = pk_promote_scalar(e->dtype, &s);
  PK_TRY(pk_binop_no_bool(ctx, op, common));
  PK_TRY(pk_check_can_cast(ctx, op, common, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, e));
  pk_scalar_tensor st;
  return pk_binop_run(ctx, op, pk_scalar_tensor_init(&st, &s), e, out, common, NULL, &pow_fn, "");
}

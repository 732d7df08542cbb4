/* aten::pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/pk.h"

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

/* aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_sub_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::sub.out";
  ptera_tensor *a, *b, *out;
  pk_scalar alpha;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_get_scalar(ctx, op, args, 2, "alpha", &alpha));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  if (a->dtype == PTERA_DTYPE_BOOL || b->dtype == PTERA_DTYPE_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: subtraction with a Bool tensor is not supported ('self' is %s, "
                             "'other' is %s); use logical_xor instead",
                             op, ptera_dtype_name(a->dtype), ptera_dtype_name(b->dtype));
  PK_TRY(pk_binary_prepare(ctx, op, a, b, out, &common));
  PK_TRY(pk_check_alpha(ctx, op, &alpha, common));

  pk_iter it;
  const ptera_tensor *ins[2] = {a, b};
  pk_iter_init(&it, out, ins, 2);
  int ad = a->dtype, bd = b->dtype, od = out->dtype;
  switch (pk_compute_type(common)) {
    case PK_CT_F32: {
      float al = (float)pk_scalar_f64(&alpha);
      PK_ITER_FOR(it) {
        float y = al * pk_load_f32(PK_PTR(b->data, it, 2), bd); /* separate statement: no FMA */
        pk_store_f32(PK_PTR(out->data, it, 0), od, pk_load_f32(PK_PTR(a->data, it, 1), ad) - y);
      }
      break;
    }
    case PK_CT_F64: {
      double al = pk_scalar_f64(&alpha);
      PK_ITER_FOR(it) {
        double y = al * pk_load_f64(PK_PTR(b->data, it, 2), bd);
        pk_store_f64(PK_PTR(out->data, it, 0), od, pk_load_f64(PK_PTR(a->data, it, 1), ad) - y);
      }
      break;
    }
    case PK_CT_I64: {
      int64_t al = pk_scalar_i64(&alpha);
      PK_ITER_FOR(it) {
        int64_t x = pk_load_i64(PK_PTR(a->data, it, 1), ad);
        int64_t y = pk_load_i64(PK_PTR(b->data, it, 2), bd);
        pk_store_i64(PK_PTR(out->data, it, 0), od, pk_wrap_to(pk_wsub(x, pk_wmul(al, y)), common));
      }
      break;
    }
  }
  return PTERA_OK;
}

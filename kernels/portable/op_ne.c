/* aten::ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out): compared in
 * the promoted type of (self, other); out of any real or bool dtype gets 1/0. */
#include "builtin.h"
#include "portable/util/compare.h"
#include "portable/util/pk.h"

ptera_status pk_ne_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::ne.Scalar_out";
  ptera_tensor *a, *out;
  pk_scalar s;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "other", &s));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  int common = pk_promote_scalar(a->dtype, &s);
  PK_TRY(pk_resize_like(ctx, op, "out", out, a));
  pk_iter it;
  const ptera_tensor *ins[1] = {a};
  pk_iter_init(&it, out, ins, 1);
  int ad = a->dtype, od = out->dtype;
  switch (pk_compute_type(common)) {
    case PK_CT_F32: {
      float sv = (float)pk_scalar_f64(&s);
      PK_ITER_FOR(it) {
        pk_store_i64(PK_PTR(out->data, it, 0), od, pk_load_f32(PK_PTR(a->data, it, 1), ad) != sv);
      }
      break;
    }
    case PK_CT_F64: {
      double sv = pk_scalar_f64(&s);
      PK_ITER_FOR(it) {
        pk_store_i64(PK_PTR(out->data, it, 0), od, pk_load_f64(PK_PTR(a->data, it, 1), ad) != sv);
      }
      break;
    }
    case PK_CT_I64: {
      int64_t sv = pk_wrap_to(pk_scalar_i64(&s), common);
      PK_ITER_FOR(it) {
        pk_store_i64(PK_PTR(out->data, it, 0), od, pk_load_i64(PK_PTR(a->data, it, 1), ad) != sv);
      }
      break;
    }
  }
  return PTERA_OK;
}

/* aten::ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) */
ptera_status pk_ne_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_compare_tensor_kernel(ctx, "aten::ne.Tensor_out", args, nargs, PK_CMP_NE);
}

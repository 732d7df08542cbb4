/* aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out)
 * aten::mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/pk.h"

/* b == NULL: multiply by the scalar s (converted to the compute type first). */
static void mul_run(const ptera_tensor *a, const ptera_tensor *b, const pk_scalar *s,
                    ptera_tensor *out, int common) {
  pk_iter it;
  const ptera_tensor *ins[2] = {a, b};
  pk_iter_init(&it, out, ins, b ? 2 : 1);
  int ad = a->dtype, bd = b ? b->dtype : 0, od = out->dtype;
  switch (pk_compute_type(common)) {
    case PK_CT_F32: {
      float sv = s ? (float)pk_scalar_f64(s) : 0.0f;
      PK_ITER_FOR(it) {
        float y = b ? pk_load_f32(PK_PTR(b->data, it, 2), bd) : sv;
        pk_store_f32(PK_PTR(out->data, it, 0), od, pk_load_f32(PK_PTR(a->data, it, 1), ad) * y);
      }
      break;
    }
    case PK_CT_F64: {
      double sv = s ? pk_scalar_f64(s) : 0.0;
      PK_ITER_FOR(it) {
        double y = b ? pk_load_f64(PK_PTR(b->data, it, 2), bd) : sv;
        pk_store_f64(PK_PTR(out->data, it, 0), od, pk_load_f64(PK_PTR(a->data, it, 1), ad) * y);
      }
      break;
    }
    case PK_CT_I64: {
      int64_t sv = s ? pk_scalar_i64(s) : 0;
      PK_ITER_FOR(it) {
        int64_t y = b ? pk_load_i64(PK_PTR(b->data, it, 2), bd) : sv;
        int64_t x = pk_load_i64(PK_PTR(a->data, it, 1), ad);
        pk_store_i64(PK_PTR(out->data, it, 0), od, pk_wrap_to(pk_wmul(x, y), common));
      }
      break;
    }
  }
}

ptera_status pk_mul_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::mul.out";
  ptera_tensor *a, *b, *out;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_binary_prepare(ctx, op, a, b, out, &common));
  mul_run(a, b, NULL, out, common);
  return PTERA_OK;
}

ptera_status pk_mul_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::mul.Scalar_out";
  ptera_tensor *a, *out;
  pk_scalar s;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "other", &s));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_scalar_prepare(ctx, op, a, &s, out, &common));
  mul_run(a, NULL, &s, out, common);
  return PTERA_OK;
}

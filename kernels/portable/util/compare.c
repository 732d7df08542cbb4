#include "portable/util/compare.h"

#define PK_CMP_APPLY(cmp, a, b)                                          \
  ((cmp) == PK_CMP_EQ   ? (a) == (b)                                     \
   : (cmp) == PK_CMP_NE ? (a) != (b)                                     \
   : (cmp) == PK_CMP_LT ? (a) < (b)                                      \
   : (cmp) == PK_CMP_LE ? (a) <= (b)                                     \
   : (cmp) == PK_CMP_GT ? (a) > (b)                                      \
                        : (a) >= (b))

/* b_tensor NULL: compare against the scalar s. */
static void compare_loop(const ptera_tensor *a, const ptera_tensor *b, const pk_scalar *s,
                         ptera_tensor *out, int common, pk_cmp cmp) {
  pk_iter it;
  const ptera_tensor *ins[2] = {a, b ? b : a};
  pk_iter_init(&it, out, ins, 2);
  int ad = a->dtype, bd = b ? b->dtype : 0, od = out->dtype;
  switch (pk_compute_type(common)) {
    case PK_CT_F32: {
      float sv = s ? (float)pk_scalar_f64(s) : 0.0f;
      PK_ITER_FOR(it) {
        float x = pk_load_f32(PK_PTR(a->data, it, 1), ad);
        float y = b ? pk_load_f32(PK_PTR(b->data, it, 2), bd) : sv;
        pk_store_i64(PK_PTR(out->data, it, 0), od, PK_CMP_APPLY(cmp, x, y));
      }
      break;
    }
    case PK_CT_F64: {
      double sv = s ? pk_scalar_f64(s) : 0.0;
      PK_ITER_FOR(it) {
        double x = pk_load_f64(PK_PTR(a->data, it, 1), ad);
        double y = b ? pk_load_f64(PK_PTR(b->data, it, 2), bd) : sv;
        pk_store_i64(PK_PTR(out->data, it, 0), od, PK_CMP_APPLY(cmp, x, y));
      }
      break;
    }
    case PK_CT_I64: {
      int64_t sv = s ? pk_wrap_to(pk_scalar_i64(s), common) : 0;
      PK_ITER_FOR(it) {
        int64_t x = pk_load_i64(PK_PTR(a->data, it, 1), ad);
        int64_t y = b ? pk_load_i64(PK_PTR(b->data, it, 2), bd) : sv;
        pk_store_i64(PK_PTR(out->data, it, 0), od, PK_CMP_APPLY(cmp, x, y));
      }
      break;
    }
  }
}

ptera_status pk_compare_tensor_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t nargs, pk_cmp cmp) {
  ptera_tensor *a, *b, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "other", b));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  int common = pk_promote_types(a->dtype, b->dtype);
  if (common < 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: no common dtype for 'self' (%s) and 'other' (%s)", op,
                             ptera_dtype_name(a->dtype), ptera_dtype_name(b->dtype));
  const ptera_tensor *ts[2] = {a, b};
  const char *names[2] = {"self", "other"};
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_broadcast_shape(ctx, op, ts, names, 2, sizes, &dim));
  PK_TRY(pk_resize(ctx, op, "out", out, dim, sizes));
  compare_loop(a, b, NULL, out, common, cmp);
  return PTERA_OK;
}

ptera_status pk_compare_scalar_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t nargs, pk_cmp cmp) {
  ptera_tensor *a, *out;
  pk_scalar s;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "other", &s));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  int common = pk_promote_scalar(a->dtype, &s);
  if (common < 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has unsupported dtype %s",
                             op, ptera_dtype_name(a->dtype));
  PK_TRY(pk_resize_like(ctx, op, "out", out, a));
  compare_loop(a, NULL, &s, out, common, cmp);
  return PTERA_OK;
}

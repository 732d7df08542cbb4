#include "portable/util/elementwise.h"

#include "portable/util/fast_f32.h"

ptera_status pk_get_binary_tensors(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t nargs, ptera_tensor **a, ptera_tensor **b,
                                   ptera_tensor **out) {
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", b));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", *a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "other", *b));
  return pk_check_real_or_bool(ctx, op, "out", *out);
}

ptera_status pk_promote_pair(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                             const ptera_tensor *b, int *common) {
  *common = pk_promote_types(a->dtype, b->dtype);
  if (*common < 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: no common dtype for 'self' (%s) and 'other' (%s)", op,
                             ptera_dtype_name(a->dtype), ptera_dtype_name(b->dtype));
  return PTERA_OK;
}

ptera_status pk_promote_with_scalar(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                                    const pk_scalar *s, int *common) {
  *common = pk_promote_scalar(a->dtype, s);
  if (*common < 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has unsupported dtype %s",
                             op, ptera_dtype_name(a->dtype));
  return PTERA_OK;
}

ptera_status pk_resize_broadcast(ptera_kernel_ctx *ctx, const char *op,
                                 const ptera_tensor *const *ts, const char *const *names, size_t n,
                                 ptera_tensor *out) {
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_broadcast_shape(ctx, op, ts, names, n, sizes, &dim));
  return pk_resize(ctx, op, "out", out, dim, sizes);
}

void pk_iter_init1(pk_iter *it, const ptera_tensor *out, const ptera_tensor *in) {
  const ptera_tensor *ins[1] = {in};
  pk_iter_init(it, out, ins, 1);
}

ptera_status pk_unary_float_prepare(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                    ptera_tensor *out) {
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_float(ctx, op, "out", out));
  return pk_resize_like(ctx, op, "out", out, in);
}

ptera_status pk_same_dtype_resize(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                  ptera_tensor *out) {
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  return pk_resize_like(ctx, op, "out", out, in);
}

ptera_status pk_binary_prepare(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                               const ptera_tensor *b, ptera_tensor *out, int *common) {
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "other", b));
  int c;
  PK_TRY(pk_promote_pair(ctx, op, a, b, &c));
  const ptera_tensor *ts[2] = {a, b};
  const char *names[2] = {"self", "other"};
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_broadcast_shape(ctx, op, ts, names, 2, sizes, &dim));
  PK_TRY(pk_check_can_cast(ctx, op, c, "out", out));
  PK_TRY(pk_resize(ctx, op, "out", out, dim, sizes));
  *common = c;
  return PTERA_OK;
}

ptera_status pk_scalar_prepare(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                               const pk_scalar *s, ptera_tensor *out, int *common) {
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  int c;
  PK_TRY(pk_promote_with_scalar(ctx, op, a, s, &c));
  PK_TRY(pk_check_can_cast(ctx, op, c, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, a));
  *common = c;
  return PTERA_OK;
}

ptera_status pk_check_alpha(ptera_kernel_ctx *ctx, const char *op, const pk_scalar *alpha,
                            int common) {
  if (alpha->tag == PTERA_TAG_DOUBLE && !pk_is_float(common))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'alpha' is a floating point number, which is not allowed for "
                             "a result of dtype %s",
                             op, ptera_dtype_name(common));
  if (alpha->tag == PTERA_TAG_BOOL && common != PTERA_DTYPE_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: a Bool 'alpha' is only supported for Bool results, not %s", op,
                             ptera_dtype_name(common));
  return PTERA_OK;
}

ptera_status pk_unary_float_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t nargs, double (*fn)(double)) {
  return pk_unary_float_kernel_fast(ctx, op, args, nargs, fn, -1);
}

ptera_status pk_unary_float_kernel_fast(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t nargs, double (*fn)(double), int vu) {
  ptera_tensor *in, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_unary_float_prepare(ctx, op, in, out));
  if (vu >= 0 && pk_fast_unary_f32(ctx, vu, in, out)) return PTERA_OK;
  pk_iter it;
  pk_iter_init1(&it, out, in);
  int id = in->dtype, od = out->dtype;
  PK_ITER_FOR(it) {
    pk_store_f64(PK_PTR(out->data, it, 0), od, fn(pk_load_f64(PK_PTR(in->data, it, 1), id)));
  }
  return PTERA_OK;
}

ptera_status pk_unary_real_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                  size_t nargs, double (*ff)(double), int64_t (*fi)(int64_t),
                                  bool allow_bool) {
  return pk_unary_real_kernel_fast(ctx, op, args, nargs, ff, fi, allow_bool, -1);
}

ptera_status pk_unary_real_kernel_fast(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t nargs, double (*ff)(double), int64_t (*fi)(int64_t),
                                       bool allow_bool, int vu) {
  ptera_tensor *in, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  if (allow_bool)
    PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  else
    PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_check_can_cast(ctx, op, in->dtype, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  if (vu >= 0 && pk_fast_unary_f32(ctx, vu, in, out)) return PTERA_OK;
  pk_iter it;
  pk_iter_init1(&it, out, in);
  int id = in->dtype, od = out->dtype;
  if (pk_is_float(id)) {
    PK_ITER_FOR(it) {
      pk_store_f64(PK_PTR(out->data, it, 0), od, ff(pk_load_f64(PK_PTR(in->data, it, 1), id)));
    }
  } else {
    PK_ITER_FOR(it) {
      pk_store_i64(PK_PTR(out->data, it, 0), od,
                   pk_wrap_to(fi(pk_load_i64(PK_PTR(in->data, it, 1), id)), id));
    }
  }
  return PTERA_OK;
}

ptera_status pk_unary_predicate_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t nargs, bool (*pred)(double x, int64_t i, bool is_float)) {
  ptera_tensor *in, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_iter it;
  pk_iter_init1(&it, out, in);
  int id = in->dtype, od = out->dtype;
  bool fl = pk_is_float(id);
  PK_ITER_FOR(it) {
    const void *x = PK_PTR(in->data, it, 1);
    bool r = fl ? pred(pk_load_f64(x, id), 0, true) : pred(0.0, pk_load_i64(x, id), false);
    pk_store_i64(PK_PTR(out->data, it, 0), od, r);
  }
  return PTERA_OK;
}

ptera_status pk_copy_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                            size_t nargs) {
  ptera_tensor *self, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  pk_copy_same_shape(out, self);
  return PTERA_OK;
}

/* aten::clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out)
 * aten::clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out)
 * min(max(x, lo), hi) in the promoted type of self and the bounds; NaN (in x or a
 * bound) propagates. At least one bound must be given. For the Scalar overload a
 * bound outside the range of out's dtype is rejected (as ExecuTorch does). */
#include <float.h>

#include "builtin.h"
#include "portable/util/fast_f32.h"
#include "portable/util/pk.h"

/* NaN-propagating max/min. */
static inline double cmax_d(double a, double b) { return (a != a || b != b) ? a + b : (a > b ? a : b); }
static inline double cmin_d(double a, double b) { return (a != a || b != b) ? a + b : (a < b ? a : b); }
static inline float cmax_f(float a, float b) { return (a != a || b != b) ? a + b : (a > b ? a : b); }
static inline float cmin_f(float a, float b) { return (a != a || b != b) ? a + b : (a < b ? a : b); }

static ptera_status get_opt_scalar(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t i, const char *name, pk_scalar *s, bool *has) {
  *has = false;
  if (args[i] && args[i]->tag == PTERA_TAG_NONE) return PTERA_OK;
  PK_TRY(pk_get_scalar(ctx, op, args, i, name, s));
  *has = true;
  return PTERA_OK;
}

static ptera_status check_bound(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                const pk_scalar *s, int odt) {
  bool bad = false;
  if (pk_is_int(odt)) {
    int64_t lo, hi, v = pk_scalar_i64(s);
    pk_int_range(odt, &lo, &hi);
    if (odt == PTERA_DTYPE_UINT64)
      bad = v < 0;
    else
      bad = v < lo || v > hi;
  } else if (pk_is_float(odt)) {
    double v = pk_scalar_f64(s), lim = odt == PTERA_DTYPE_DOUBLE ? DBL_MAX
                                       : odt == PTERA_DTYPE_HALF ? 65504.0
                                                                 : (double)FLT_MAX;
    bad = isfinite(v) && (v < -lim || v > lim);
  }
  if (bad)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' is out of the range of %s",
                             op, name, ptera_dtype_name(odt));
  return PTERA_OK;
}

ptera_status pk_clamp_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::clamp.out";
  ptera_tensor *in, *out;
  pk_scalar lo = {0}, hi = {0};
  bool has_lo, has_hi;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(get_opt_scalar(ctx, op, args, 1, "min", &lo, &has_lo));
  PK_TRY(get_opt_scalar(ctx, op, args, 2, "max", &hi, &has_hi));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  if (!has_lo && !has_hi)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: at least one of 'min' and 'max' must not be None", op);
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  int common = in->dtype;
  if (has_lo) common = pk_promote_scalar(common, &lo);
  if (has_hi && common >= 0) common = pk_promote_scalar(common, &hi);
  if (common < 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has unsupported dtype %s",
                             op, ptera_dtype_name(in->dtype));
  PK_TRY(pk_check_can_cast(ctx, op, common, "out", out));
  if (has_lo) PK_TRY(check_bound(ctx, op, "min", &lo, out->dtype));
  if (has_hi) PK_TRY(check_bound(ctx, op, "max", &hi, out->dtype));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));

  pk_iter it;
  const ptera_tensor *ins[1] = {in};
  pk_iter_init(&it, out, ins, 1);
  int id = in->dtype, od = out->dtype;
  switch (pk_compute_type(common)) {
    case PK_CT_F32: {
      float l = (float)pk_scalar_f64(&lo), h = (float)pk_scalar_f64(&hi);
      /* The vector clamp keeps NaN of x but keeps x, not the bound, on a
       * tie: the two differ only for a zero bound meeting a zero of the
       * other sign, so a zero or NaN bound takes the loop. */
      bool fast_ok = (!has_lo || (l != 0.0f && !isnan(l))) && (!has_hi || (h != 0.0f && !isnan(h)));
      if (id == PTERA_DTYPE_FLOAT && od == PTERA_DTYPE_FLOAT && fast_ok &&
          pk_fast_clamp_f32(ctx, in, has_lo ? l : -INFINITY, has_hi ? h : INFINITY, out))
        break;
      PK_ITER_FOR(it) {
        float v = pk_load_f32(PK_PTR(in->data, it, 1), id);
        if (has_lo) v = cmax_f(v, l);
        if (has_hi) v = cmin_f(v, h);
        pk_store_f32(PK_PTR(out->data, it, 0), od, v);
      }
      break;
    }
    case PK_CT_F64: {
      double l = pk_scalar_f64(&lo), h = pk_scalar_f64(&hi);
      PK_ITER_FOR(it) {
        double v = pk_load_f64(PK_PTR(in->data, it, 1), id);
        if (has_lo) v = cmax_d(v, l);
        if (has_hi) v = cmin_d(v, h);
        pk_store_f64(PK_PTR(out->data, it, 0), od, v);
      }
      break;
    }
    case PK_CT_I64: {
      int64_t l = pk_wrap_to(pk_scalar_i64(&lo), common), h = pk_wrap_to(pk_scalar_i64(&hi), common);
      PK_ITER_FOR(it) {
        int64_t v = pk_load_i64(PK_PTR(in->data, it, 1), id);
        if (has_lo && v < l) v = l;
        if (has_hi && v > h) v = h;
        pk_store_i64(PK_PTR(out->data, it, 0), od, v);
      }
      break;
    }
  }
  return PTERA_OK;
}

ptera_status pk_clamp_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::clamp.Tensor_out";
  ptera_tensor *in, *lo, *hi, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 1, "min", &lo));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "max", &hi));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  if (!lo && !hi)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: at least one of 'min' and 'max' must not be None", op);
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  if (lo) PK_TRY(pk_check_real_or_bool(ctx, op, "min", lo));
  if (hi) PK_TRY(pk_check_real_or_bool(ctx, op, "max", hi));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  int common = in->dtype;
  if (lo) common = pk_promote_types(common, lo->dtype);
  if (hi && common >= 0) common = pk_promote_types(common, hi->dtype);
  if (common < 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: no common dtype for 'self', 'min' and 'max'", op);
  PK_TRY(pk_check_can_cast(ctx, op, common, "out", out));
  const ptera_tensor *ts[3];
  const char *names[3];
  size_t n = 0;
  ts[n] = in, names[n++] = "self";
  if (lo) ts[n] = lo, names[n++] = "min";
  if (hi) ts[n] = hi, names[n++] = "max";
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_broadcast_shape(ctx, op, ts, names, n, sizes, &dim));
  PK_TRY(pk_resize(ctx, op, "out", out, dim, sizes));

  /* An absent bound is iterated as self (and ignored). */
  const ptera_tensor *l = lo ? lo : in, *h = hi ? hi : in;
  bool has_lo = lo != NULL, has_hi = hi != NULL;
  pk_iter it;
  const ptera_tensor *ins[3] = {in, l, h};
  pk_iter_init(&it, out, ins, 3);
  int id = in->dtype, ld = l->dtype, hd = h->dtype, od = out->dtype;
  switch (pk_compute_type(common)) {
    case PK_CT_F32:
      PK_ITER_FOR(it) {
        float v = pk_load_f32(PK_PTR(in->data, it, 1), id);
        if (has_lo) v = cmax_f(v, pk_load_f32(PK_PTR(l->data, it, 2), ld));
        if (has_hi) v = cmin_f(v, pk_load_f32(PK_PTR(h->data, it, 3), hd));
        pk_store_f32(PK_PTR(out->data, it, 0), od, v);
      }
      break;
    case PK_CT_F64:
      PK_ITER_FOR(it) {
        double v = pk_load_f64(PK_PTR(in->data, it, 1), id);
        if (has_lo) v = cmax_d(v, pk_load_f64(PK_PTR(l->data, it, 2), ld));
        if (has_hi) v = cmin_d(v, pk_load_f64(PK_PTR(h->data, it, 3), hd));
        pk_store_f64(PK_PTR(out->data, it, 0), od, v);
      }
      break;
    case PK_CT_I64:
      PK_ITER_FOR(it) {
        int64_t v = pk_load_i64(PK_PTR(in->data, it, 1), id);
        if (has_lo) {
          int64_t b = pk_load_i64(PK_PTR(l->data, it, 2), ld);
          if (v < b) v = b;
        }
        if (has_hi) {
          int64_t b = pk_load_i64(PK_PTR(h->data, it, 3), hd);
          if (v > b) v = b;
        }
        pk_store_i64(PK_PTR(out->data, it, 0), od, v);
      }
      break;
  }
  return PTERA_OK;
}

/* aten::arange.out(Scalar end, *, Tensor(a!) out)
 * aten::arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out)
 * out = [start + i * step for i < ceil((end - start) / step)] in out's dtype
 * (integers exactly when every Scalar is integral, doubles otherwise). */
#include "builtin.h"
#include "portable/util/pk.h"

static ptera_status arange(ptera_kernel_ctx *ctx, const char *op, const pk_scalar *start,
                           const pk_scalar *end, const pk_scalar *step, ptera_tensor *out) {
  PK_TRY(pk_check_real(ctx, op, "out", out));
  double s = pk_scalar_f64(start), e = pk_scalar_f64(end), st = pk_scalar_f64(step);
  if (st == 0.0 || st != st)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'step' must be nonzero", op);
  if (!isfinite(s) || !isfinite(e))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'start' and 'end' must be finite",
                             op);
  if ((st > 0 && e < s) || (st < 0 && e > s))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'step' has the wrong sign for 'start' %g and 'end' %g", op, s, e);
  double n = ceil((e - s) / st);
  if (!(n >= 0.0) || n > (double)INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: the result would have %g elements",
                             op, n);
  int32_t size = (int32_t)n;
  PK_TRY(pk_resize(ctx, op, "out", out, 1, &size));
  size_t es = ptera_dtype_size(out->dtype);
  char *d = (char *)out->data;
  bool ints = start->tag != PTERA_TAG_DOUBLE && end->tag != PTERA_TAG_DOUBLE &&
              step->tag != PTERA_TAG_DOUBLE;
  for (int32_t i = 0; i < size; i++) {
    if (ints)
      pk_store_i64(d + (size_t)i * es, out->dtype, pk_wadd(start->i, pk_wmul(step->i, i)));
    else
      pk_store_f64(d + (size_t)i * es, out->dtype, s + st * (double)i);
  }
  return PTERA_OK;
}

ptera_status pk_arange_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::arange.out";
  ptera_tensor *out;
  pk_scalar end, zero = {PTERA_TAG_INT, 0, 0.0}, one = {PTERA_TAG_INT, 1, 1.0};
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_scalar(ctx, op, args, 0, "end", &end));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  return arange(ctx, op, &zero, &end, &one, out);
}

ptera_status pk_arange_start_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::arange.start_out";
  ptera_tensor *out;
  pk_scalar start, end, step;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_scalar(ctx, op, args, 0, "start", &start));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "end", &end));
  PK_TRY(pk_get_scalar(ctx, op, args, 2, "step", &step));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  return arange(ctx, op, &start, &end, &step, out);
}

/* aten::repeat_interleave.Tensor_out(Tensor repeats, *, int? output_size=None,
 * Tensor(a!) out): out = [i repeated repeats[i] times for each i]; repeats is a
 * 1-D Int or Long tensor of non-negative counts; out has repeats' dtype. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_repeat_interleave_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                             size_t nargs) {
  static const char op[] = "aten::repeat_interleave.Tensor_out";
  ptera_tensor *reps, *out;
  int64_t osize = 0;
  bool has_osize;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "repeats", &reps));
  PK_TRY(pk_get_opt_int(ctx, op, args, 1, "output_size", &osize, &has_osize));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  if (reps->dtype != PTERA_DTYPE_INT && reps->dtype != PTERA_DTYPE_LONG)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'repeats' must be Int or Long, got %s", op,
                             ptera_dtype_name(reps->dtype));
  PK_TRY(pk_check_same_dtype(ctx, op, "repeats", reps, "out", out));
  if (reps->dim != 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'repeats' has rank %u, not 1", op,
                             (unsigned)reps->dim);
  size_t es = ptera_dtype_size(reps->dtype);
  const char *rp = (const char *)reps->data;
  int64_t total = 0;
  for (size_t i = 0; i < reps->numel; i++) {
    int64_t r = pk_load_i64(rp + (size_t)reps->strides[0] * i * es, reps->dtype);
    if (r < 0)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'repeats'[%zu] is negative (%lld)",
                               op, i, (long long)r);
    if (r > INT32_MAX - total)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'repeats' sum is too large", op);
    total += r;
  }
  if (has_osize && osize != total)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'output_size' %lld differs from the sum of 'repeats' %lld", op,
                             (long long)osize, (long long)total);
  int32_t size = (int32_t)total;
  PK_TRY(pk_resize(ctx, op, "out", out, 1, &size));
  char *op_ = (char *)out->data;
  size_t k = 0;
  for (size_t i = 0; i < reps->numel; i++) {
    int64_t r = pk_load_i64(rp + (size_t)reps->strides[0] * i * es, reps->dtype);
    for (int64_t j = 0; j < r; j++) pk_store_i64(op_ + es * k++, out->dtype, (int64_t)i);
  }
  return PTERA_OK;
}

/* aten::slice_scatter.out(Tensor self, Tensor src, int dim=0, SymInt? start=None,
 * SymInt? end=None, SymInt step=1, *, Tensor(a!) out): out = self with
 * out[start:end:step] (along dim) = src. start/end wrap once and clamp like
 * Python slicing; step >= 1. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_slice_scatter_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::slice_scatter.out";
  ptera_tensor *self, *src, *out;
  int64_t dim, start = 0, end = 0, step;
  bool has_start, has_end;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "src", &src));
  PK_TRY(pk_get_int(ctx, op, args, 2, "dim", &dim));
  PK_TRY(pk_get_opt_int(ctx, op, args, 3, "start", &start, &has_start));
  PK_TRY(pk_get_opt_int(ctx, op, args, 4, "end", &end, &has_end));
  PK_TRY(pk_get_int(ctx, op, args, 5, "step", &step));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "src", src));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have rank >= 1", op);
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  if (step <= 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'step' must be positive, got %lld",
                             op, (long long)step);
  int64_t n = self->sizes[d];
  if (!has_start) start = 0;
  if (!has_end) end = n;
  if (start < 0) start += n;
  if (end < 0) end += n;
  if (start < 0) start = 0;
  if (start > n) start = n;
  if (end < start) end = start;
  if (end > n) end = n;
  int64_t len = end == start ? 0 : (end - start - 1) / step + 1;
  bool ok = src->dim == self->dim;
  for (size_t k = 0; ok && k < self->dim; k++)
    if (src->sizes[k] != (k == d ? len : self->sizes[k])) ok = false;
  if (!ok) {
    char a[128], b[128];
    int32_t want[PTERA_MAX_DIM];
    for (size_t k = 0; k < self->dim; k++) want[k] = self->sizes[k];
    want[d] = (int32_t)len;
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'src' has shape %s, expected %s", op,
                             pk_fmt_shape(a, sizeof a, src->sizes, src->dim),
                             pk_fmt_shape(b, sizeof b, want, self->dim));
  }
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  if (out->numel == 0) return PTERA_OK;
  pk_copy_same_shape(out, self);
  if (src->numel == 0) return PTERA_OK;
  size_t es = ptera_dtype_size(out->dtype);
  int64_t strides[2][PTERA_MAX_DIM];
  size_t esz[2] = {es, es};
  for (size_t k = 0; k < out->dim; k++) {
    strides[0][k] = src->strides[k];
    strides[1][k] = k == d ? out->strides[k] * step : out->strides[k];
  }
  char *base = (char *)out->data + (ptrdiff_t)start * out->strides[d] * (ptrdiff_t)es;
  pk_iter it;
  pk_iter_init_raw(&it, src->dim, src->sizes, NULL, 2, (const int64_t(*)[PTERA_MAX_DIM])strides, esz);
  PK_ITER_FOR(it) memcpy(PK_PTR(base, it, 1), PK_PTR(src->data, it, 0), es);
  return PTERA_OK;
}

/* aten::slice_scatter.out(Tensor self, Tensor src, int dim=0, SymInt? start=None,
 * SymInt? end=None, SymInt step=1, *, Tensor(a!) out): out = self with
 * out[start:end:step] (along dim) = src. start/end wrap once and clamp like
 * Python slicing; step >= 1. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

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
  int64_t len = pk_slice_range(n, has_start, start, has_end, end, step, &start);
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
  return pk_scatter_view(ctx, op, out, self, src, d, start, step, true);
}

/* aten::select_scatter.out(Tensor self, Tensor src, int dim, int index, *,
 * Tensor(a!) out): out = self with out.select(dim, index) = src. src has self's
 * shape without dim; index may be negative. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_select_scatter_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::select_scatter.out";
  ptera_tensor *self, *src, *out;
  int64_t dim, index;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "src", &src));
  PK_TRY(pk_get_int(ctx, op, args, 2, "dim", &dim));
  PK_TRY(pk_get_int(ctx, op, args, 3, "index", &index));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "src", src));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have rank >= 1", op);
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  int64_t n = self->sizes[d];
  if (index < -n || index >= n)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'index' %lld is out of range for dim %zu of size %lld", op,
                             (long long)index, d, (long long)n);
  if (index < 0) index += n;
  bool ok = src->dim + 1u == self->dim;
  for (size_t k = 0, j = 0; ok && k < self->dim; k++) {
    if (k == d) continue;
    if (src->sizes[j++] != self->sizes[k]) ok = false;
  }
  if (!ok) {
    char a[128], b[128];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'src' has shape %s, expected 'self' shape %s without dim %zu", op,
                             pk_fmt_shape(a, sizeof a, src->sizes, src->dim),
                             pk_fmt_shape(b, sizeof b, self->sizes, self->dim), d);
  }
  return pk_scatter_view(ctx, op, out, self, src, d, index, 1, false);
}

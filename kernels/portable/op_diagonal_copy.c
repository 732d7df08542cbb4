/* aten::diagonal_copy.out(Tensor self, int offset=0, int dim1=0, int dim2=1, *,
 * Tensor(a!) out): dims dim1 and dim2 are removed and the diagonal (shifted by
 * offset, positive above) becomes the last dim. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_diagonal_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::diagonal_copy.out";
  ptera_tensor *self, *out;
  int64_t offset, dim1, dim2;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "offset", &offset));
  PK_TRY(pk_get_int(ctx, op, args, 2, "dim1", &dim1));
  PK_TRY(pk_get_int(ctx, op, args, 3, "dim2", &dim2));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim < 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has rank %u, below 2", op,
                             (unsigned)self->dim);
  size_t d1, d2;
  PK_TRY(pk_norm_dim(ctx, op, "dim1", dim1, self->dim, &d1));
  PK_TRY(pk_norm_dim(ctx, op, "dim2", dim2, self->dim, &d2));
  if (d1 == d2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'dim1' and 'dim2' are both %zu",
                             op, d1);
  int64_t s1 = self->sizes[d1], s2 = self->sizes[d2], len, start;
  if (offset >= 0) {
    len = offset >= s2 ? 0 : (s1 < s2 - offset ? s1 : s2 - offset);
    start = len > 0 ? offset * self->strides[d2] : 0;
  } else {
    len = -offset >= s1 ? 0 : (s1 + offset < s2 ? s1 + offset : s2);
    start = len > 0 ? -offset * self->strides[d1] : 0;
  }
  int32_t sizes[PTERA_MAX_DIM];
  int64_t vstr[PTERA_MAX_DIM];
  size_t k = 0;
  for (size_t d = 0; d < self->dim; d++) {
    if (d == d1 || d == d2) continue;
    sizes[k] = self->sizes[d];
    vstr[k++] = self->strides[d];
  }
  sizes[k] = (int32_t)len;
  vstr[k++] = (int64_t)self->strides[d1] + self->strides[d2];
  PK_TRY(pk_resize(ctx, op, "out", out, k, sizes));
  pk_copy_view(out, self, vstr, start);
  return PTERA_OK;
}

/* aten::unfold_copy.out(Tensor self, int dimension, int size, int step, *,
 * Tensor(a!) out): windows of size elements every step along dimension; that dim
 * becomes the window count ((s - size) / step + 1) and a new last dim of size size. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_unfold_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::unfold_copy.out";
  ptera_tensor *self, *out;
  int64_t dimension, size, step;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dimension", &dimension));
  PK_TRY(pk_get_int(ctx, op, args, 2, "size", &size));
  PK_TRY(pk_get_int(ctx, op, args, 3, "step", &step));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dimension", dimension, self->dim, &d));
  int64_t len = self->dim == 0 ? 1 : self->sizes[d];
  if (size < 0 || size > len)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'size' %lld is outside 0..%lld (the size of dim %zu)", op,
                             (long long)size, (long long)len, d);
  if (step <= 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'step' %lld must be positive", op,
                             (long long)step);
  int32_t sizes[PTERA_MAX_DIM];
  int64_t vstr[PTERA_MAX_DIM];
  if (self->dim == 0) {
    sizes[0] = (int32_t)size;
    vstr[0] = 0;
    PK_TRY(pk_resize(ctx, op, "out", out, 1, sizes));
    pk_copy_view(out, self, vstr, 0);
    return PTERA_OK;
  }
  if (self->dim >= PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' already has rank %d", op,
                             PTERA_MAX_DIM);
  int64_t count = (len - size) / step + 1;
  for (size_t i = 0; i < self->dim; i++) {
    sizes[i] = self->sizes[i];
    vstr[i] = self->strides[i];
  }
  sizes[d] = (int32_t)count;
  vstr[d] = count > 1 ? step * self->strides[d] : 0;
  sizes[self->dim] = (int32_t)size;
  vstr[self->dim] = self->strides[d];
  PK_TRY(pk_resize(ctx, op, "out", out, self->dim + 1u, sizes));
  pk_copy_view(out, self, vstr, 0);
  return PTERA_OK;
}

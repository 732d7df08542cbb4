/* aten::unsqueeze_copy.out(Tensor self, int dim, *, Tensor(a!) out): inserts a
 * size-1 dim at dim (in -(rank+1)..rank). */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_unsqueeze_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::unsqueeze_copy.out";
  ptera_tensor *self, *out;
  int64_t dim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim >= PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' already has rank %d", op,
                             PTERA_MAX_DIM);
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim + 1u, &d));
  int32_t sizes[PTERA_MAX_DIM];
  size_t k = 0;
  for (size_t i = 0; i <= self->dim; i++) sizes[i] = i == d ? 1 : self->sizes[k++];
  PK_TRY(pk_resize(ctx, op, "out", out, self->dim + 1u, sizes));
  pk_copy_reshape(out, self);
  return PTERA_OK;
}

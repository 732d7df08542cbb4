/* aten::t_copy.out(Tensor self, *, Tensor(a!) out): transposes a rank-2 tensor;
 * rank 0 and 1 are copied unchanged; rank above 2 is rejected. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_t_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::t_copy.out";
  ptera_tensor *self, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim > 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has rank %u, above 2", op,
                             (unsigned)self->dim);
  int32_t sizes[2];
  int64_t vstr[2];
  for (size_t i = 0; i < self->dim; i++) {
    size_t j = self->dim - 1 - i;
    sizes[i] = self->sizes[j];
    vstr[i] = self->strides[j];
  }
  PK_TRY(pk_resize(ctx, op, "out", out, self->dim, sizes));
  pk_copy_view(out, self, vstr, 0);
  return PTERA_OK;
}

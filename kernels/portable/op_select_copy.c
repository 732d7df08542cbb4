/* aten::select_copy.int_out(Tensor self, int dim, int index, *, Tensor(a!) out):
 * the slice at index of dim, with dim removed. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_select_copy_int_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::select_copy.int_out";
  ptera_tensor *self, *out;
  int64_t dim, index;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_int(ctx, op, args, 2, "index", &index));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is 0-d", op);
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  int64_t size = self->sizes[d];
  if (index < -size || index >= size)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'index' %lld is out of range for dim %zu of size %lld", op,
                             (long long)index, d, (long long)size);
  if (index < 0) index += size;
  int32_t sizes[PTERA_MAX_DIM];
  int64_t vstr[PTERA_MAX_DIM];
  size_t k = 0;
  for (size_t i = 0; i < self->dim; i++) {
    if (i == d) continue;
    sizes[k] = self->sizes[i];
    vstr[k++] = self->strides[i];
  }
  PK_TRY(pk_resize(ctx, op, "out", out, k, sizes));
  pk_copy_view(out, self, vstr, index * self->strides[d]);
  return PTERA_OK;
}

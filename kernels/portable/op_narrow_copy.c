/* aten::narrow_copy.out(Tensor self, int dim, SymInt start, SymInt length, *,
 * Tensor(a!) out): length elements of dim from start (negative start counts
 * from the end). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_narrow_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::narrow_copy.out";
  ptera_tensor *self, *out;
  int64_t dim, start, length;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_int(ctx, op, args, 2, "start", &start));
  PK_TRY(pk_get_int(ctx, op, args, 3, "length", &length));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is 0-d", op);
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  int64_t size = self->sizes[d];
  if (start < 0) start += size;
  if (start < 0 || start > size)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'start' is out of range for dim %zu of size %lld", op, d,
                             (long long)size);
  if (length < 0 || length > size - start)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'length' %lld from start %lld exceeds dim %zu of size %lld", op,
                             (long long)length, (long long)start, d, (long long)size);
  int32_t sizes[PTERA_MAX_DIM];
  int64_t vstr[PTERA_MAX_DIM];
  for (size_t i = 0; i < self->dim; i++) {
    sizes[i] = self->sizes[i];
    vstr[i] = self->strides[i];
  }
  sizes[d] = (int32_t)length;
  PK_TRY(pk_resize(ctx, op, "out", out, self->dim, sizes));
  pk_copy_view(out, self, vstr, length > 0 ? start * self->strides[d] : 0);
  return PTERA_OK;
}

#include "portable/util/index_util.h"

ptera_status pk_check_index_tensor(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *self,
                                   int64_t dim, const ptera_tensor *index, size_t *d) {
  PK_TRY(pk_check_dtype(ctx, op, "index", index, PTERA_DTYPE_LONG));
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, d));
  size_t si = self->dim ? self->dim : 1, ii = index->dim ? index->dim : 1;
  if (si != ii)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'index' has rank %u but 'self' has rank %u", op,
                             (unsigned)index->dim, (unsigned)self->dim);
  for (size_t k = 0; k < index->dim && k < self->dim; k++) {
    if (k != *d && index->sizes[k] > self->sizes[k])
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'index' size %d at dim %zu exceeds the size %d of 'self'", op,
                               (int)index->sizes[k], k, (int)self->sizes[k]);
  }
  return PTERA_OK;
}

ptera_status pk_read_index(ptera_kernel_ctx *ctx, const char *op, const void *p, int64_t size,
                           int64_t *v) {
  int64_t x = *(const int64_t *)p;
  if (x < 0 || x >= size)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: index %lld is out of bounds for a dim of size %lld", op,
                             (long long)x, (long long)size);
  *v = x;
  return PTERA_OK;
}

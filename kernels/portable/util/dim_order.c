#include "portable/util/dim_order.h"

ptera_status pk_dim_order_copy_args(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t nargs, ptera_tensor **self_out, ptera_tensor **out_out) {
  ptera_tensor *self, *out;
  bool non_blocking, has_order;
  int64_t order[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_bool(ctx, op, args, 1, "non_blocking", &non_blocking));
  PK_TRY(pk_get_opt_int_list(ctx, op, args, 2, "dim_order", order, PTERA_MAX_DIM, &n, &has_order));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  if (non_blocking)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'non_blocking' must be false", op);
  if (out->dim != self->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'out' has rank %u but 'self' has rank %u", op, (unsigned)out->dim,
                             (unsigned)self->dim);
  if (has_order) {
    bool ok = n == out->dim;
    for (size_t i = 0; ok && i < n; i++) ok = order[i] == out->dim_order[i];
    if (!ok)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'dim_order' does not match the dim order of 'out'", op);
  }
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  if (!has_order && !pk_same_layout(out, self))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'dim_order' is None (preserve) but 'out' has a different "
                             "memory layout from 'self'",
                             op);
  *self_out = self;
  *out_out = out;
  return PTERA_OK;
}

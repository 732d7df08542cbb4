/* dim_order_ops::_clone_dim_order.out(Tensor self, *, bool non_blocking=False,
 * int[]? dim_order=None, Tensor(a!) out): copies self into out (same dtype) in
 * out's dim order. A given dim_order must be out's; None means "preserve": out
 * must then have self's layout. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_clone_dim_order_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "dim_order_ops::_clone_dim_order.out";
  ptera_tensor *self, *out;
  bool non_blocking, has_order;
  int64_t order[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_bool(ctx, op, args, 1, "non_blocking", &non_blocking));
  PK_TRY(pk_get_opt_int_list(ctx, op, args, 2, "dim_order", order, PTERA_MAX_DIM, &n, &has_order));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
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
  if (out->numel == 0) return PTERA_OK;
  if (pk_same_layout(out, self))
    memmove(out->data, self->data, ptera_tensor_nbytes(self));
  else if (pk_is_real_or_bool(self->dtype))
    pk_copy_same_shape(out, self);
  else
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: cannot change the layout of dtype %s",
                             op, ptera_dtype_name(self->dtype));
  return PTERA_OK;
}

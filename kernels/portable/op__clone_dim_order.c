/* dim_order_ops::_clone_dim_order.out(Tensor self, *, bool non_blocking=False,
 * int[]? dim_order=None, Tensor(a!) out): copies self into out (same dtype) in
 * out's dim order. A given dim_order must be out's; None means "preserve": out
 * must then have self's layout. */
#include "builtin.h"
#include "portable/util/dim_order.h"

ptera_status pk_clone_dim_order_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "dim_order_ops::_clone_dim_order.out";
  ptera_tensor *self, *out;
  PK_TRY(pk_dim_order_copy_args(ctx, op, args, nargs, &self, &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
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

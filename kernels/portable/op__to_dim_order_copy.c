/* dim_order_ops::_to_dim_order_copy.out(Tensor self, *, bool non_blocking=False,
 * int[]? dim_order=None, Tensor(a!) out): copies self into out converting the
 * dtype to out's and the layout to out's dim order. A given dim_order must be
 * out's; None means "preserve": out must then have self's dim order. */
#include "builtin.h"
#include "portable/util/dim_order.h"

ptera_status pk_to_dim_order_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "dim_order_ops::_to_dim_order_copy.out";
  ptera_tensor *self, *out;
  PK_TRY(pk_dim_order_copy_args(ctx, op, args, nargs, &self, &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  pk_copy_same_shape(out, self);
  return PTERA_OK;
}

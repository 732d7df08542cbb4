/* aten::lift_fresh_copy.out(Tensor self, *, Tensor(a!) out): a copy of self (same dtype). */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_lift_fresh_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::lift_fresh_copy.out";
  ptera_tensor *self, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  pk_copy_same_shape(out, self);
  return PTERA_OK;
}

/* aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out):
 * index (Long) of the first maximum; NaN counts as the maximum. dim=None reduces
 * the flattened tensor (keepdim then keeps every dim as 1). */
#include "builtin.h"
#include "portable/util/extreme.h"

ptera_status pk_argmax_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::argmax.out";
  ptera_tensor *in, *out;
  int64_t dim;
  bool has_dim, keepdim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_opt_int(ctx, op, args, 1, "dim", &dim, &has_dim));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "keepdim", &keepdim));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_check_dtype(ctx, op, "out", out, PTERA_DTYPE_LONG));
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, &dim, has_dim ? 1 : 0, has_dim, keepdim, &p));
  if (p.reduced_numel == 0 || (!has_dim && in->numel == 0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: cannot take the argmax of an empty dimension", op);
  PK_TRY(pk_resize(ctx, op, "out", out, p.out_dim, p.out_sizes));
  pk_extreme_reduce(&p, in, out, keepdim, true, true);
  return PTERA_OK;
}

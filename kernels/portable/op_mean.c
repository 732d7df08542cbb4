/* aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
 *                Tensor(a!) out)
 * aten::mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out): all dims.
 * The result is floating. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/reduce_ops.h"

ptera_status pk_mean_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::mean.out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  return pk_sum_mean(ctx, op, args, 1, 2, 3, 4, true);
}

ptera_status pk_mean_dtype_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::mean.dtype_out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  return pk_sum_mean(ctx, op, args, -1, -1, 1, 2, true);
}

/* aten::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *,
 * ScalarType? dtype=None, Tensor(a!) out). An empty or None dim list sums all
 * dims. Accumulates in out's compute type, in logical order. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/reduce_ops.h"

ptera_status pk_sum_intlist_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::sum.IntList_out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  return pk_sum_mean(ctx, op, args, 1, 2, 3, 4, false);
}

/* aten::var_mean.correction_out(Tensor self, int[1]? dim, *, int? correction,
 *   bool keepdim=False, Tensor(a!) out0, Tensor(b!) out1): out0 the variance (as
 *   var.correction_out), out1 the mean. */
#include "builtin.h"
#include "portable/util/var.h"

ptera_status pk_var_mean_correction_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::var_mean.correction_out";
  int64_t c = 1;
  bool has;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 7));
  PK_TRY(pk_get_opt_int(ctx, op, args, 2, "correction", &c, &has));
  return pk_var_common(ctx, op, args, 3, has ? (double)c : 1.0, 4, 5);
}

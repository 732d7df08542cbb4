/* aten::var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out)
 * aten::var.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out)
 * Variance over dim (None or [] = all dims): sum((x - mean)^2) / max(0, N - correction),
 * two passes in out's compute type; correction defaults to 1. Floating self and out. */
#include "builtin.h"
#include "portable/util/var.h"

ptera_status pk_var_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::var.out";
  bool unbiased;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "unbiased", &unbiased));
  return pk_var_common(ctx, op, args, 3, unbiased ? 1.0 : 0.0, 4, -1);
}

ptera_status pk_var_correction_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::var.correction_out";
  int64_t c = 1;
  bool has;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_opt_int(ctx, op, args, 2, "correction", &c, &has));
  return pk_var_common(ctx, op, args, 3, has ? (double)c : 1.0, 4, -1);
}

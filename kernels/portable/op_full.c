/* aten::full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out). */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"

ptera_status pk_full_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::full.out";
  ptera_tensor *out;
  pk_scalar v;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "fill_value", &v));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_resize_to_size_arg(ctx, op, args, 0, out));
  return pk_fill_scalar(ctx, op, "out", out, &v);
}

/* aten::zeros.out(SymInt[] size, *, Tensor(a!) out). */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"

ptera_status pk_zeros_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::zeros.out";
  ptera_tensor *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_resize_to_size_arg(ctx, op, args, 0, out));
  pk_scalar v = {PTERA_TAG_INT, 0, 0.0};
  return pk_fill_scalar(ctx, op, "out", out, &v);
}

/* aten::empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out):
 * only resizes out; its contents are left as they are. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_empty_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::empty.out";
  ptera_tensor *out;
  int64_t mf;
  bool has_mf;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_opt_memory_format(ctx, op, args, 1, "memory_format", &mf, &has_mf));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  return pk_resize_to_size_arg(ctx, op, args, 0, out);
}

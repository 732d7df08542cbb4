/* aten::clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out).
 * The copy follows out's dim order whatever the memory format asks. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_clone_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::clone.out";
  ptera_tensor *self, *out;
  int64_t mf;
  bool has_mf;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_opt_memory_format(ctx, op, args, 1, "memory_format", &mf, &has_mf));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  pk_copy_same_shape(out, self);
  return PTERA_OK;
}

/* aten::_to_copy.out(Tensor self, *, bool non_blocking=False,
 * MemoryFormat? memory_format=None, Tensor(a!) out): self converted to out's
 * dtype (real or bool dtypes; any dtype when they are equal). The copy follows
 * out's dim order. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_to_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::_to_copy.out";
  ptera_tensor *self, *out;
  bool nb, has_mf;
  int64_t mf;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_bool(ctx, op, args, 1, "non_blocking", &nb));
  PK_TRY(pk_get_opt_memory_format(ctx, op, args, 2, "memory_format", &mf, &has_mf));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  if (self->dtype != out->dtype) {
    PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
    PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  }
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  pk_copy_same_shape(out, self);
  return PTERA_OK;
}

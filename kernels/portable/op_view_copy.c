/* aten::view_copy.out(Tensor self, SymInt[] size, *, Tensor(a!) out): one -1 is
 * inferred; numel must match; elements copied in logical order. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_view_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::view_copy.out";
  ptera_tensor *self, *out;
  int64_t size[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "size", size, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  int32_t sizes[PTERA_MAX_DIM];
  int infer = -1;
  uint64_t known = 1;
  for (size_t i = 0; i < n; i++) {
    if (size[i] == -1) {
      if (infer >= 0)
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' has more than one -1",
                                 op);
      infer = (int)i;
      continue;
    }
    if (size[i] < 0 || size[i] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' item %zu is invalid: %lld",
                               op, i, (long long)size[i]);
    sizes[i] = (int32_t)size[i];
    if (!pt_mul_u64(known, (uint64_t)size[i], &known))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' overflows", op);
  }
  if (infer >= 0) {
    if (known == 0 || self->numel % known != 0 || self->numel / known > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: cannot infer the -1 in 'size' for %zu elements", op,
                               self->numel);
    sizes[infer] = (int32_t)(self->numel / known);
    known = self->numel;
  }
  if (known != self->numel) {
    char b[128];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: shape %s is invalid for 'self' with %zu elements", op,
                             pk_fmt_shape(b, sizeof b, sizes, n), self->numel);
  }
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  pk_copy_reshape(out, self);
  return PTERA_OK;
}

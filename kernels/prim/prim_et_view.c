/* executorch_prim::et_view.default(Tensor self, int[] size) -> Tensor: exactly 3 args
 * [self, size, out]; out (same dtype) is resized to size (one -1 inferred) and aliases
 * self's data (and its read-only flag). */
#include "builtin.h"
#include "prim/prim_util.h"

ptera_status pk_prim_et_view_default(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::et_view.default";
  ptera_tensor *self, *out;
  int64_t size[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "size", size, PTERA_MAX_DIM, &n));
  if (!args[2] || args[2]->tag != PTERA_TAG_TENSOR || !args[2]->u.tensor)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: 'out' must be a Tensor", op);
  out = args[2]->u.tensor;
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  int32_t sizes[PTERA_MAX_DIM];
  int infer = -1;
  uint64_t known = 1;
  for (size_t i = 0; i < n; i++) {
    if (size[i] == -1 && infer < 0) {
      infer = (int)i;
      continue;
    }
    if (size[i] < 0 || size[i] > INT32_MAX || !pt_mul_u64(known, (uint64_t)size[i], &known))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' item %zu is invalid: %lld",
                               op, i, (long long)size[i]);
    sizes[i] = (int32_t)size[i];
  }
  if (infer >= 0) {
    if (known == 0 || self->numel % known != 0 || self->numel / known > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: cannot infer the -1 in 'size'",
                               op);
    sizes[infer] = (int32_t)(self->numel / known);
    known = self->numel;
  }
  if (known != self->numel)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'size' has %llu elements but 'self' has %zu", op,
                             (unsigned long long)known, self->numel);
  if (!pk_is_rowmajor(self))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'self' is not in row-major order; a view cannot alias it", op);
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  out->data = self->data;
  /* A view of read-only program data is read-only too: the runtime's
   * write check before each call then refuses a kernel writing through it. */
  out->flags = (uint8_t)((out->flags & ~PTERA_TENSOR_CONST) | (self->flags & PTERA_TENSOR_CONST));
  return PTERA_OK;
}

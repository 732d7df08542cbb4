/* aten::unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> ():
 * out[k] = self.select(dim, k); out must hold self.size(dim) tensors. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/split.h"

ptera_status pk_unbind_copy_int_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::unbind_copy.int_out";
  ptera_tensor *self, **outs;
  int64_t dim;
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor_list(ctx, op, args, 2, "out", &outs, &n));
  if (self->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is 0-d", op);
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  if ((int64_t)n != self->sizes[d])
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'out' has %zu tensors but dim %zu has size %d", op, n, d,
                             (int)self->sizes[d]);
  int64_t *lens = (int64_t *)ptera_kernel_temp(ctx, (n ? n : 1) * sizeof(int64_t), _Alignof(int64_t));
  if (!lens)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: no temp memory for %zu sizes",
                             op, n);
  for (size_t k = 0; k < n; k++) lens[k] = 1;
  return pk_split_into(ctx, op, self, d, outs, lens, n, true);
}

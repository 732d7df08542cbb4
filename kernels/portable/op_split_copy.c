/* aten::split_copy.Tensor_out(Tensor self, int split_size, int dim=0, *,
 * Tensor(a!)[] out) -> (): chunks of split_size along dim (the last may be
 * smaller); out must hold exactly max(ceil(size / split_size), 1) tensors. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/split.h"

ptera_status pk_split_copy_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::split_copy.Tensor_out";
  ptera_tensor *self, **outs;
  int64_t split, dim;
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "split_size", &split));
  PK_TRY(pk_get_int(ctx, op, args, 2, "dim", &dim));
  PK_TRY(pk_get_tensor_list(ctx, op, args, 3, "out", &outs, &n));
  if (self->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is 0-d", op);
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  int64_t size = self->sizes[d];
  if (split < 0 || (split == 0 && size != 0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'split_size' %lld is invalid for dim %zu of size %lld", op,
                             (long long)split, d, (long long)size);
  int64_t chunks = split == 0 ? 1 : (size + split - 1) / split;
  if (chunks < 1) chunks = 1;
  if ((int64_t)n != chunks)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'out' has %zu tensors but the split makes %lld", op, n,
                             (long long)chunks);
  int64_t *lens = (int64_t *)ptera_kernel_temp(ctx, n * sizeof(int64_t), _Alignof(int64_t));
  if (!lens)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: no temp memory for %zu sizes",
                             op, n);
  for (size_t k = 0; k < n; k++) {
    int64_t rest = size - (int64_t)k * split;
    lens[k] = rest < split ? rest : split;
  }
  return pk_split_into(ctx, op, self, d, outs, lens, n, false);
}

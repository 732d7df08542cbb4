/* aten::split_with_sizes_copy.out(Tensor self, int[] split_sizes, int dim=0, *,
 * Tensor(a!)[] out) -> (): chunks of the given sizes (summing to self.size(dim)). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/split.h"

ptera_status pk_split_with_sizes_copy_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                          size_t nargs) {
  static const char op[] = "aten::split_with_sizes_copy.out";
  ptera_tensor *self, **outs;
  int64_t dim;
  size_t n, nl;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  const ptera_value *lv = args[1];
  size_t cap = lv && lv->tag == PTERA_TAG_LIST_INT ? lv->u.list.len : 0;
  int64_t *lens = (int64_t *)ptera_kernel_temp(ctx, (cap ? cap : 1) * sizeof(int64_t),
                                               _Alignof(int64_t));
  if (!lens)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: no temp memory for %zu sizes",
                             op, cap);
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "split_sizes", lens, cap, &nl));
  PK_TRY(pk_get_int(ctx, op, args, 2, "dim", &dim));
  PK_TRY(pk_get_tensor_list(ctx, op, args, 3, "out", &outs, &n));
  if (self->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is 0-d", op);
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  if (nl != n)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'split_sizes' has %zu entries but 'out' has %zu tensors", op, nl,
                             n);
  int64_t sum = 0;
  for (size_t k = 0; k < nl; k++) {
    if (lens[k] < 0 || lens[k] > self->sizes[d] - sum)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'split_sizes' do not sum to dim %zu of size %d", op, d,
                               (int)self->sizes[d]);
    sum += lens[k];
  }
  if (sum != self->sizes[d])
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'split_sizes' sum to %lld, not to dim %zu of size %d", op,
                             (long long)sum, d, (int)self->sizes[d]);
  return pk_split_into(ctx, op, self, d, outs, lens, n, false);
}

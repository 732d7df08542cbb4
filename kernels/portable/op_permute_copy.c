/* aten::permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out):
 * out.size(i) = self.size(dims[i]). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_permute_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::permute_copy.out";
  ptera_tensor *self, *out;
  int64_t dims[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "dims", dims, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (n != self->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'dims' has %zu entries but 'self' has rank %u", op, n,
                             (unsigned)self->dim);
  bool seen[PTERA_MAX_DIM] = {false};
  size_t perm[PTERA_MAX_DIM];
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t i = 0; i < n; i++) {
    PK_TRY(pk_norm_dim(ctx, op, "dims", dims[i], n, &perm[i]));
    if (seen[perm[i]])
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'dims' repeats dim %zu", op,
                               perm[i]);
    seen[perm[i]] = true;
    sizes[i] = self->sizes[perm[i]];
  }
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  int64_t vstr[PTERA_MAX_DIM];
  for (size_t i = 0; i < n; i++) vstr[i] = self->strides[perm[i]];
  pk_copy_view(out, self, vstr, 0);
  return PTERA_OK;
}

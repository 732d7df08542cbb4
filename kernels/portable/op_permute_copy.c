/* aten::permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out):
 * out.size(i) = self.size(dims[i]). */
#include "builtin.h"
#include "portable/util/pk.h"

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
  if (out->numel == 0) return PTERA_OK;
  int64_t strides[2][PTERA_MAX_DIM];
  size_t es[2] = {ptera_dtype_size(out->dtype), ptera_dtype_size(self->dtype)};
  for (size_t i = 0; i < n; i++) {
    strides[0][i] = out->strides[i];
    strides[1][i] = self->strides[perm[i]];
  }
  pk_iter it;
  pk_iter_init_raw(&it, n, out->sizes, out->dim_order, 2, (const int64_t(*)[PTERA_MAX_DIM])strides,
                   es);
  PK_ITER_FOR(it) { memcpy(PK_PTR(out->data, it, 0), PK_PTR(self->data, it, 1), es[0]); }
  return PTERA_OK;
}

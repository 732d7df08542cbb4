/* aten::expand_copy.out(Tensor self, SymInt[] size, *, bool implicit=False, Tensor(a!) out):
 * -1 keeps a dim; new leading dims are added; size-1 dims broadcast. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_expand_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::expand_copy.out";
  ptera_tensor *self, *out;
  int64_t size[PTERA_MAX_DIM];
  size_t n;
  bool implicit;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "size", size, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "implicit", &implicit));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (n < self->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'size' has %zu entries, fewer than the rank %u of 'self'", op, n,
                             (unsigned)self->dim);
  int32_t sizes[PTERA_MAX_DIM];
  size_t lead = n - self->dim;
  for (size_t i = 0; i < n; i++) {
    int64_t s = size[i];
    if (i < lead) {
      if (s < 0 || s > INT32_MAX)
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                                 "%s: 'size' item %zu = %lld is invalid for a new leading dim", op,
                                 i, (long long)s);
      sizes[i] = (int32_t)s;
      continue;
    }
    int32_t have = self->sizes[i - lead];
    if (s == -1) s = have;
    if (s < 0 || s > INT32_MAX || (have != 1 && s != have))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: cannot expand dim %zu of size %d to %lld", op, i - lead,
                               (int)have, (long long)size[i]);
    sizes[i] = (int32_t)s;
  }
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  /* the view of self with stride 0 along the new and the broadcast dims */
  int64_t vstr[PTERA_MAX_DIM];
  for (size_t i = 0; i < n; i++)
    vstr[i] = i < lead || (self->sizes[i - lead] == 1 && sizes[i] != 1) ? 0
                                                                        : self->strides[i - lead];
  pk_copy_view(out, self, vstr, 0);
  return PTERA_OK;
}

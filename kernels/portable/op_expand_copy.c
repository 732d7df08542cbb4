/* aten::expand_copy.out(Tensor self, SymInt[] size, *, bool implicit=False, Tensor(a!) out):
 * -1 keeps a dim; new leading dims are added; size-1 dims broadcast. */
#include "builtin.h"
#include "portable/util/pk.h"

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
  if (out->numel == 0) return PTERA_OK;
  pk_iter it;
  const ptera_tensor *ins[1] = {self};
  pk_iter_init(&it, out, ins, 1);
  size_t es = ptera_dtype_size(out->dtype);
  if (self->numel == 1) { /* fill: replicate one element */
    const char *src = (const char *)self->data;
    char *dst = (char *)out->data;
    for (size_t i = 0; i < out->numel; i++) memcpy(dst + i * es, src, es);
    return PTERA_OK;
  }
  PK_ITER_FOR(it) { memcpy(PK_PTR(out->data, it, 0), PK_PTR(self->data, it, 1), es); }
  return PTERA_OK;
}

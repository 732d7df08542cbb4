/* aten::nonzero.out(Tensor self, *, Tensor(a!) out): out (Long) is [n, rank] with
 * the logical indices of the n nonzero elements of self in row-major order. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

ptera_status pk_nonzero_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::nonzero.out";
  ptera_tensor *self, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
  PK_TRY(pk_check_dtype(ctx, op, "out", out, PTERA_DTYPE_LONG));
  size_t count = 0;
  pk_iter it;
  pk_iter_init_logical(&it, self);
  PK_ITER_FOR(it) count += pk_load_bool(PK_PTR(self->data, it, 0), self->dtype);
  if (count > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: too many nonzero elements", op);
  int32_t sizes[2] = {(int32_t)count, (int32_t)self->dim};
  PK_TRY(pk_resize(ctx, op, "out", out, 2, sizes));
  if (out->numel == 0) return PTERA_OK;
  ptrdiff_t rs = (ptrdiff_t)out->strides[0] * 8, cs = (ptrdiff_t)out->strides[1] * 8;
  size_t row = 0;
  for (size_t n = 0; n < self->numel; n++) {
    if (!pk_load_bool((const char *)self->data + pk_flat_off(self, n), self->dtype)) continue;
    size_t f = n;
    for (size_t k = self->dim; k-- > 0;) {
      int64_t i = (int64_t)(f % (size_t)self->sizes[k]);
      f /= (size_t)self->sizes[k];
      *(int64_t *)((char *)out->data + (ptrdiff_t)row * rs + (ptrdiff_t)k * cs) = i;
    }
    row++;
  }
  return PTERA_OK;
}

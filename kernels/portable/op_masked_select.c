/* aten::masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out): self and
 * mask (Bool) broadcast together; out is 1-D with the elements of self where mask
 * is true, in row-major order. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

ptera_status pk_masked_select_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::masked_select.out";
  ptera_tensor *self, *mask, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "mask", &mask));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_dtype(ctx, op, "mask", mask, PTERA_DTYPE_BOOL));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_mask_shape(ctx, op, self, mask, sizes, &dim));
  size_t es = ptera_dtype_size(self->dtype);
  int64_t strides[2][PTERA_MAX_DIM];
  size_t esz[2] = {es, 1};
  pk_bcast_strides(self, dim, sizes, strides[0]);
  pk_bcast_strides(mask, dim, sizes, strides[1]);
  pk_iter it;
  pk_iter_init_raw(&it, dim, sizes, NULL, 2, (const int64_t(*)[PTERA_MAX_DIM])strides, esz);
  size_t count = pk_mask_count(mask, dim, sizes);
  if (count > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: too many selected elements", op);
  int32_t osize = (int32_t)count;
  PK_TRY(pk_resize(ctx, op, "out", out, 1, &osize));
  if (count == 0) return PTERA_OK;
  ptrdiff_t os = (ptrdiff_t)out->strides[0] * (ptrdiff_t)es;
  char *dst = out->data;
  PK_ITER_FOR(it) {
    if (!*(const uint8_t *)PK_PTR(mask->data, it, 1)) continue;
    memcpy(dst, PK_PTR(self->data, it, 0), es);
    dst += os;
  }
  return PTERA_OK;
}

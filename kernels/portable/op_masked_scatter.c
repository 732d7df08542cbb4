/* aten::masked_scatter.out(Tensor self, Tensor mask, Tensor source, *, Tensor(a!) out):
 * out has the broadcast shape of self and mask (Bool); where mask is true it takes
 * the next element of source (row-major order), elsewhere self. source must have
 * at least as many elements as mask has true entries. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

ptera_status pk_masked_scatter_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::masked_scatter.out";
  ptera_tensor *self, *mask, *source, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "mask", &mask));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "source", &source));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_dtype(ctx, op, "mask", mask, PTERA_DTYPE_BOOL));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "source", source));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_mask_shape(ctx, op, self, mask, sizes, &dim));
  PK_TRY(pk_resize(ctx, op, "out", out, dim, sizes));
  size_t es = ptera_dtype_size(self->dtype);
  int64_t strides[3][PTERA_MAX_DIM];
  size_t esz[3] = {es, es, 1};
  for (size_t k = 0; k < dim; k++) strides[0][k] = out->strides[k];
  pk_bcast_strides(self, dim, sizes, strides[1]);
  pk_bcast_strides(mask, dim, sizes, strides[2]);
  pk_iter it;
  pk_iter_init_raw(&it, dim, sizes, NULL, 3, (const int64_t(*)[PTERA_MAX_DIM])strides, esz);
  size_t count = pk_mask_count(mask, dim, sizes);
  if (count > source->numel)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'source' has %zu elements but 'mask' selects %zu", op,
                             source->numel, count);
  if (out->numel == 0) return PTERA_OK;
  size_t k = 0;
  PK_ITER_FOR(it) {
    const char *src = *(const uint8_t *)PK_PTR(mask->data, it, 2)
                          ? (const char *)source->data + pk_flat_off(source, k++)
                          : PK_PTR(self->data, it, 1);
    memcpy(PK_PTR(out->data, it, 0), src, es);
  }
  return PTERA_OK;
}

/* aten::masked_fill.Scalar_out(Tensor self, Tensor mask, Scalar value, *, Tensor(a!) out):
 * out = where(mask, value, self) with self and mask (Bool) broadcast together. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"
#include "portable/util/fast_f32.h"

ptera_status pk_masked_fill_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::masked_fill.Scalar_out";
  ptera_tensor *self, *mask, *out;
  pk_scalar value;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "mask", &mask));
  PK_TRY(pk_get_scalar(ctx, op, args, 2, "value", &value));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
  PK_TRY(pk_check_dtype(ctx, op, "mask", mask, PTERA_DTYPE_BOOL));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_mask_shape(ctx, op, self, mask, sizes, &dim));
  const ptera_tensor *ins[2] = {self, mask};
  PK_TRY(pk_resize(ctx, op, "out", out, dim, sizes));
  if (out->numel == 0) return PTERA_OK;
  char elem[16];
  pk_store_scalar(elem, out->dtype, &value);
  if (out->dtype == PTERA_DTYPE_FLOAT) {
    float v;
    memcpy(&v, elem, sizeof v);
    if (pk_fast_masked_fill_f32(ctx, self, mask, v, out)) return PTERA_OK;
  }
  size_t es = ptera_dtype_size(out->dtype);
  pk_iter it;
  pk_iter_init(&it, out, ins, 2);
  PK_ITER_FOR(it) {
    const void *src = *(const uint8_t *)PK_PTR(mask->data, it, 2) ? (const void *)elem
                                                                  : (const void *)PK_PTR(self->data, it, 1);
    memcpy(PK_PTR(out->data, it, 0), src, es);
  }
  return PTERA_OK;
}

/* aten::flip.out(Tensor self, int[] dims, *, Tensor(a!) out): reverses the
 * listed dims (no repeats). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_flip_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::flip.out";
  ptera_tensor *self, *out;
  int64_t dims[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "dims", dims, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  bool flip[PTERA_MAX_DIM] = {false};
  for (size_t i = 0; i < n; i++) {
    size_t d;
    PK_TRY(pk_norm_dim(ctx, op, "dims", dims[i], self->dim, &d));
    if (flip[d])
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'dims' repeats dim %zu", op, d);
    flip[d] = true;
  }
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  int64_t vstr[PTERA_MAX_DIM], off = 0;
  for (size_t d = 0; d < self->dim; d++) {
    vstr[d] = flip[d] ? -(int64_t)self->strides[d] : self->strides[d];
    if (flip[d] && self->sizes[d] > 0) off += (int64_t)(self->sizes[d] - 1) * self->strides[d];
  }
  pk_copy_view(out, self, vstr, off);
  return PTERA_OK;
}

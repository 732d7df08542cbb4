/* aten::index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out):
 * out = self with dim d replaced by the entries index (1-D or 0-D, Long or Int)
 * picks; 0-D self takes a one-element index. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

ptera_status pk_index_select_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::index_select.out";
  ptera_tensor *self, *index, *out;
  int64_t dim;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "index", &index));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (index->dtype != PTERA_DTYPE_LONG && index->dtype != PTERA_DTYPE_INT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'index' must be Long or Int, got %s",
                             op, ptera_dtype_name(index->dtype));
  if (index->dim > 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'index' must be 0-D or 1-D, got rank %u",
                             op, (unsigned)index->dim);
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  int64_t dsize = self->dim ? self->sizes[d] : 1;
  if (self->dim == 0 && index->numel != 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'index' must have one element for a 0-D 'self', has %zu", op,
                             index->numel);
  for (size_t n = 0; n < index->numel; n++) {
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "index", (const char *)index->data + pk_flat_off(index, n),
                             index->dtype, dsize, false, &v));
  }
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t k = 0; k < self->dim; k++) sizes[k] = self->sizes[k];
  if (self->dim) sizes[d] = (int32_t)index->numel;
  PK_TRY(pk_resize(ctx, op, "out", out, self->dim, sizes));
  if (out->numel == 0) return PTERA_OK;
  /* element strides: out, and self with the stride along d zeroed (added per index) */
  size_t es = ptera_dtype_size(self->dtype);
  int64_t strides[2][PTERA_MAX_DIM];
  for (size_t k = 0; k < out->dim; k++) {
    strides[0][k] = out->strides[k];
    strides[1][k] = k == d ? 0 : self->strides[k];
  }
  ptrdiff_t dstride = self->dim ? (ptrdiff_t)self->strides[d] * (ptrdiff_t)es : 0;
  /* walk out in logical order; j along d picks the index entry */
  for (size_t n = 0; n < out->numel; n++) {
    size_t f = n;
    ptrdiff_t oo = 0, so = 0;
    int64_t jd = 0;
    for (size_t k = out->dim; k-- > 0;) {
      size_t i = f % (size_t)out->sizes[k];
      f /= (size_t)out->sizes[k];
      oo += (ptrdiff_t)i * (ptrdiff_t)strides[0][k];
      so += (ptrdiff_t)i * (ptrdiff_t)strides[1][k];
      if (k == d) jd = (int64_t)i;
    }
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "index", (const char *)index->data + pk_flat_off(index, (size_t)jd),
                             index->dtype, dsize, false, &v));
    memcpy((char *)out->data + oo * (ptrdiff_t)es, (const char *)self->data + so * (ptrdiff_t)es + v * dstride, es);
  }
  return PTERA_OK;
}

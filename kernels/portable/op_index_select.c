/* aten::index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out):
 * out = self with dim d replaced by the entries index (1-D or 0-D, Long or Int)
 * picks; 0-D self takes a one-element index. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

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
  /* per index entry j, the slice self[.., v, ..] along d into out[.., j, ..],
   * a region copy over the other dims (in out's memory order) */
  int64_t rsz[PTERA_MAX_DIM], dstr[PTERA_MAX_DIM], sstr[PTERA_MAX_DIM];
  size_t nd = 0;
  for (size_t i = 0; i < out->dim; i++) {
    size_t k = out->dim_order[i];
    if (k == d) continue;
    rsz[nd] = out->sizes[k];
    dstr[nd] = out->strides[k];
    sstr[nd] = self->strides[k];
    nd++;
  }
  size_t L = self->dim ? (size_t)out->sizes[d] : 1;
  for (size_t j = 0; j < L; j++) {
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "index", (const char *)index->data + pk_flat_off(index, j),
                             index->dtype, dsize, false, &v));
    int64_t oo = self->dim ? (int64_t)j * out->strides[d] : 0;
    int64_t so = self->dim ? v * self->strides[d] : 0;
    pk_copy_region(out->data, out->dtype, dstr, oo, self->data, self->dtype, sstr, so, nd, rsz);
  }
  return PTERA_OK;
}

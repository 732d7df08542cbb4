/* aten::scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *,
 * Tensor(a!) out): out = self, then out[index[i][j]][j] = value (dim 0). */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/index_util.h"
#include "portable/util/pk.h"

ptera_status pk_scatter_value_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::scatter.value_out";
  ptera_tensor *self, *index, *out;
  int64_t dim;
  pk_scalar value;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "index", &index));
  PK_TRY(pk_get_scalar(ctx, op, args, 3, "value", &value));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_check_index_tensor(ctx, op, self, dim, index, &d));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  int64_t dsize = self->dim ? self->sizes[d] : 1;
  /* validate every index before writing anything */
  if (index->numel > 0 && out->numel == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is empty", op);
  {
    pk_iter it;
    pk_iter_init_logical(&it, index);
    PK_ITER_FOR(it) {
      int64_t v;
      PK_TRY(pk_read_index(ctx, op, PK_PTR(index->data, it, 0), dsize, &v));
    }
  }
  pk_copy_same_shape(out, self);
  if (index->numel == 0) return PTERA_OK;
  char elem[16];
  pk_store_scalar(elem, out->dtype, &value);
  size_t es = ptera_dtype_size(out->dtype);
  int64_t strides[2][PTERA_MAX_DIM];
  size_t esz[2] = {8, es};
  for (size_t k = 0; k < index->dim; k++) {
    strides[0][k] = index->strides[k];
    strides[1][k] = (k == d || out->dim == 0) ? 0 : out->strides[k];
  }
  ptrdiff_t dstride = out->dim ? (ptrdiff_t)out->strides[d] * (ptrdiff_t)es : 0;
  pk_iter it;
  pk_iter_init_raw(&it, index->dim, index->sizes, NULL, 2, (const int64_t(*)[PTERA_MAX_DIM])strides,
                   esz);
  PK_ITER_FOR(it) {
    int64_t v = *(const int64_t *)PK_PTR(index->data, it, 0);
    memcpy(PK_PTR(out->data, it, 1) + v * dstride, elem, es);
  }
  return PTERA_OK;
}

/* aten::scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *,
 * Tensor(a!) out): out = self, then out[index[i][j]][j] = src[i][j] (dim 0). */
ptera_status pk_scatter_src_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_scatter_src_op(ctx, "aten::scatter.src_out", args, nargs, false);
}

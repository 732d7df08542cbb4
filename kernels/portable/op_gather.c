/* aten::gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False,
 * Tensor(a!) out): out[i][j] = self[index[i][j]][j] (dim 0), shape of index. */
#include "builtin.h"
#include "portable/util/index_util.h"
#include "portable/util/pk.h"

ptera_status pk_gather_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::gather.out";
  ptera_tensor *self, *index, *out;
  int64_t dim;
  bool sparse;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "index", &index));
  PK_TRY(pk_get_bool(ctx, op, args, 3, "sparse_grad", &sparse));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  if (sparse)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'sparse_grad' must be false", op);
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_check_index_tensor(ctx, op, self, dim, index, &d));
  PK_TRY(pk_resize_like(ctx, op, "out", out, index));
  if (out->numel == 0) return PTERA_OK;
  int64_t dsize = self->dim ? self->sizes[d] : 1;
  if (self->numel == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is empty", op);
  /* operands: out, index, self with self's stride zeroed along dim */
  int64_t strides[3][PTERA_MAX_DIM];
  size_t es[3] = {ptera_dtype_size(out->dtype), 8, ptera_dtype_size(self->dtype)};
  for (size_t k = 0; k < index->dim; k++) {
    strides[0][k] = out->strides[k];
    strides[1][k] = index->strides[k];
    strides[2][k] = (k == d || self->dim == 0) ? 0 : self->strides[k];
  }
  ptrdiff_t dstride = self->dim ? (ptrdiff_t)self->strides[d] * (ptrdiff_t)es[2] : 0;
  pk_iter it;
  pk_iter_init_raw(&it, index->dim, index->sizes, out->dim_order, 3,
                   (const int64_t(*)[PTERA_MAX_DIM])strides, es);
  PK_ITER_FOR(it) {
    int64_t v;
    PK_TRY(pk_read_index(ctx, op, PK_PTR(index->data, it, 1), dsize, &v));
    memcpy(PK_PTR(out->data, it, 0), PK_PTR(self->data, it, 2) + v * dstride, es[0]);
  }
  return PTERA_OK;
}

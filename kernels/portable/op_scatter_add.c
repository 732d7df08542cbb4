/* aten::scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *,
 * Tensor(a!) out): out = self, then out[index[i][j]][j] += src[i][j] (dim 0). */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/index_util.h"
#include "portable/util/pk.h"

ptera_status pk_scatter_add_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::scatter_add.out";
  ptera_tensor *self, *index, *src, *out;
  int64_t dim;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "index", &index));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "src", &src));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "src", src));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_check_index_tensor(ctx, op, self, dim, index, &d));
  PK_TRY(pk_check_scatter_src(ctx, op, index, src));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  if (index->numel > 0 && out->numel == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is empty", op);
  return pk_scatter_src(ctx, op, out, self, d, index, src, true);
}

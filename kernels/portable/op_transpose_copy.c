/* aten::transpose_copy.int_out(Tensor self, int dim0, int dim1, *, Tensor(a!) out):
 * swaps two dims (0-d tensors accept dims -1 and 0). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_transpose_copy_int_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::transpose_copy.int_out";
  ptera_tensor *self, *out;
  int64_t dim0, dim1;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim0", &dim0));
  PK_TRY(pk_get_int(ctx, op, args, 2, "dim1", &dim1));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  size_t a, b;
  PK_TRY(pk_norm_dim(ctx, op, "dim0", dim0, self->dim, &a));
  PK_TRY(pk_norm_dim(ctx, op, "dim1", dim1, self->dim, &b));
  int32_t sizes[PTERA_MAX_DIM];
  int64_t vstr[PTERA_MAX_DIM];
  for (size_t i = 0; i < self->dim; i++) {
    size_t j = i == a ? b : i == b ? a : i;
    sizes[i] = self->sizes[j];
    vstr[i] = self->strides[j];
  }
  PK_TRY(pk_resize(ctx, op, "out", out, self->dim, sizes));
  pk_copy_view(out, self, vstr, 0);
  return PTERA_OK;
}

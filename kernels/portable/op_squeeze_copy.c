/* aten::squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out): removes
 * the listed dims that have size 1 (others are kept). */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_squeeze_copy_dims_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::squeeze_copy.dims_out";
  ptera_tensor *self, *out;
  int64_t dims[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "dim", dims, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  bool drop[PTERA_MAX_DIM] = {false};
  for (size_t i = 0; i < n; i++) {
    size_t d;
    PK_TRY(pk_norm_dim(ctx, op, "dim", dims[i], self->dim, &d));
    if (self->dim > 0 && self->sizes[d] == 1) drop[d] = true;
  }
  int32_t sizes[PTERA_MAX_DIM];
  size_t od = 0;
  for (size_t d = 0; d < self->dim; d++)
    if (!drop[d]) sizes[od++] = self->sizes[d];
  PK_TRY(pk_resize(ctx, op, "out", out, od, sizes));
  pk_copy_reshape(out, self);
  return PTERA_OK;
}

/* aten::squeeze_copy.dim_out(Tensor self, int dim, *, Tensor(a!) out): removes dim
 * when it has size 1. */
ptera_status pk_squeeze_copy_dim_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::squeeze_copy.dim_out";
  ptera_tensor *self, *out;
  int64_t dim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  int32_t sizes[PTERA_MAX_DIM];
  size_t od = 0;
  for (size_t i = 0; i < self->dim; i++)
    if (i != d || self->sizes[i] != 1) sizes[od++] = self->sizes[i];
  PK_TRY(pk_resize(ctx, op, "out", out, od, sizes));
  pk_copy_reshape(out, self);
  return PTERA_OK;
}

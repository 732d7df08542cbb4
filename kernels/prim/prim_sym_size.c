/* aten::sym_size.int(Tensor self, int dim) -> int; aten::sym_numel(Tensor self) -> int;
 * aten::_local_scalar_dense(Tensor self) -> Scalar. */
#include "builtin.h"
#include "prim/prim_util.h"

ptera_status pk_prim_sym_size_int(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::sym_size.int";
  ptera_value *ret;
  ptera_tensor *t;
  int64_t dim;
  size_t d;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 3, &ret));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &t));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  if (t->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has rank 0 and no sizes", op);
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, t->dim, &d));
  pk_prim_set_int(ret, t->sizes[d]);
  return PTERA_OK;
}

ptera_status pk_prim_sym_numel(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::sym_numel";
  ptera_value *ret;
  ptera_tensor *t;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 2, &ret));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &t));
  pk_prim_set_int(ret, (int64_t)t->numel);
  return PTERA_OK;
}

ptera_status pk_prim_local_scalar_dense(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::_local_scalar_dense";
  ptera_value *ret;
  ptera_tensor *t;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 2, &ret));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &t));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", t));
  if (t->numel < 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is empty", op);
  if (t->dtype == PTERA_DTYPE_BOOL)
    pk_prim_set_bool(ret, *(const uint8_t *)t->data != 0);
  else if (pk_is_float(t->dtype))
    pk_prim_set_double(ret, pk_load_f64(t->data, t->dtype));
  else
    pk_prim_set_int(ret, pk_load_i64(t->data, t->dtype));
  return PTERA_OK;
}

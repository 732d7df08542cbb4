/* aten::prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
 * aten::prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out)
 * Product over dim (or all elements, 0-d out), accumulated in out's compute type
 * (the result dtype is out's, as in PyTorch's out= variants); the product of
 * nothing is 1. With dtype given out must have it. */
#include "builtin.h"
#include "portable/util/reduce_ops.h"

static ptera_status prod(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, int dim_i,
                         int dtype_i, int out_i) {
  ptera_tensor *in, *out;
  int64_t dim = 0;
  bool keepdim = false, has_dtype;
  int dtype = 0;
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  if (dim_i >= 0) {
    PK_TRY(pk_get_int(ctx, op, args, (size_t)dim_i, "dim", &dim));
    PK_TRY(pk_get_bool(ctx, op, args, (size_t)dim_i + 1, "keepdim", &keepdim));
  }
  PK_TRY(pk_get_opt_dtype(ctx, op, args, (size_t)dtype_i, "dtype", &dtype, &has_dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, (size_t)out_i, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  if (has_dtype)
    PK_TRY(pk_check_dtype(ctx, op, "out", out, dtype));
  else
    PK_TRY(pk_check_can_cast(ctx, op, in->dtype, "out", out));
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, &dim, dim_i >= 0 ? 1 : 0, dim_i >= 0, keepdim, &p));
  PK_TRY(pk_resize(ctx, op, "out", out, p.out_dim, p.out_sizes));
  pk_accumulate(&p, in, out, keepdim, PK_ACC_PROD);
  return PTERA_OK;
}

ptera_status pk_prod_int_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::prod.int_out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  return prod(ctx, op, args, 1, 3, 4);
}

ptera_status pk_prod_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::prod.out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  return prod(ctx, op, args, -1, 1, 2);
}

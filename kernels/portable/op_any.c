/* aten::any.all_out(Tensor self, *, Tensor(a!) out)
 * aten::any.dims_out(Tensor self, int[1]? dim=None, bool keepdim=False, *, Tensor(a!) out)
 * aten::any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out)
 * True where any element over the reduced dims is nonzero (NaN counts as
 * nonzero); an empty reduction gives False. self of any real or Bool dtype; out
 * Bool or Byte (as in ExecuTorch and PyTorch). any.dims_out with an empty dim
 * list reduces nothing: out is self read as truth values. */
#include "builtin.h"
#include "portable/util/pk.h"

static ptera_status check_dtypes(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                 const ptera_tensor *out) {
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  if (out->dtype != PTERA_DTYPE_BOOL && out->dtype != PTERA_DTYPE_BYTE)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'out' has dtype %s; it must be Bool or Byte", op,
                             ptera_dtype_name(out->dtype));
  return PTERA_OK;
}

/* Plans the reduction, resizes out and folds it. */
static ptera_status reduce_any(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                               ptera_tensor *out, const int64_t *dims, size_t ndims,
                               bool has_dims, bool keepdim) {
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, dims, ndims, has_dims, keepdim, &p));
  PK_TRY(pk_resize(ctx, op, "out", out, p.out_dim, p.out_sizes));
  pk_iter outer, inner;
  pk_reduce_iters(&p, in, out, keepdim, &outer, &inner);
  int id = in->dtype, od = out->dtype;
  const char *ib = (const char *)in->data;
  PK_ITER_FOR(outer) {
    bool any = false;
    if (!ib) { /* empty self: nothing to reduce */
      pk_store_i64(PK_PTR(out->data, outer, 0), od, 0);
      continue;
    }
    const char *base = ib + outer.off[1];
    pk_iter_reset(&inner);
    PK_ITER_FOR(inner) {
      if (pk_load_bool(base + inner.off[0], id)) {
        any = true;
        break;
      }
    }
    pk_store_i64(PK_PTR(out->data, outer, 0), od, any);
  }
  return PTERA_OK;
}

ptera_status pk_any_all_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::any.all_out";
  ptera_tensor *in, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(check_dtypes(ctx, op, in, out));
  return reduce_any(ctx, op, in, out, NULL, 0, false, false);
}

ptera_status pk_any_dims_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::any.dims_out";
  ptera_tensor *in, *out;
  int64_t dims[PTERA_MAX_DIM];
  size_t ndims = 0;
  bool has_dims, keepdim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_opt_int_list(ctx, op, args, 1, "dim", dims, PTERA_MAX_DIM, &ndims, &has_dims));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "keepdim", &keepdim));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(check_dtypes(ctx, op, in, out));
  if (has_dims && ndims == 0) {
    /* Nothing reduced: out is self as truth values. */
    PK_TRY(pk_resize_like(ctx, op, "out", out, in));
    pk_iter it;
    const ptera_tensor *ins[1] = {in};
    pk_iter_init(&it, out, ins, 1);
    int id = in->dtype, od = out->dtype;
    PK_ITER_FOR(it) {
      pk_store_i64(PK_PTR(out->data, it, 0), od, pk_load_bool(PK_PTR(in->data, it, 1), id));
    }
    return PTERA_OK;
  }
  return reduce_any(ctx, op, in, out, dims, ndims, has_dims, keepdim);
}

ptera_status pk_any_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::any.out";
  ptera_tensor *in, *out;
  int64_t dim;
  bool keepdim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "keepdim", &keepdim));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(check_dtypes(ctx, op, in, out));
  return reduce_any(ctx, op, in, out, &dim, 1, true, keepdim);
}

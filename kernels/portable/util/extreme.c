#include "portable/util/extreme.h"

#include "portable/util/fast_f32.h"

void pk_extreme_reduce(const pk_reduce_plan *p, const ptera_tensor *in, ptera_tensor *out,
                       bool keepdim, bool is_max, bool index) {
  pk_iter outer, inner;
  pk_reduce_iters(p, in, out, keepdim, &outer, &inner);
  int id = in->dtype, od = out->dtype;
  const char *ib = (const char *)in->data;
  PK_ITER_FOR(outer) {
    const char *base = ib + outer.off[1];
    const char *best = NULL;
    int64_t k = 0, bk = 0;
    pk_iter_reset(&inner);
    PK_ITER_FOR(inner) {
      const char *e = base + inner.off[0];
      if (!best || pk_extreme_better(e, best, id, is_max)) {
        best = e;
        bk = k;
      }
      k++;
    }
    char *o = PK_PTR(out->data, outer, 0);
    if (index)
      pk_store_i64(o, od, bk);
    else if (best)
      pk_convert_elem(o, od, best, id);
  }
}

void pk_scan_init(pk_iter *it, const ptera_tensor *const *ops, size_t n, size_t d, size_t *len,
                  ptrdiff_t *step) {
  const ptera_tensor *t0 = ops[0];
  int32_t sizes[PTERA_MAX_DIM];
  int64_t strides[PK_ITER_MAX_OPS][PTERA_MAX_DIM];
  size_t esize[PK_ITER_MAX_OPS];
  size_t rank = t0->dim;
  for (size_t k = 0; k < n; k++) {
    esize[k] = ptera_dtype_size(ops[k]->dtype);
    for (size_t i = 0; i < rank; i++) strides[k][i] = ops[k]->strides[i];
    step[k] = rank ? (ptrdiff_t)ops[k]->strides[d] * (ptrdiff_t)esize[k] : 0;
  }
  for (size_t i = 0; i < rank; i++) sizes[i] = i == d ? 1 : t0->sizes[i];
  *len = rank ? (size_t)t0->sizes[d] : 1;
  pk_iter_init_raw(it, rank, sizes, t0->dim_order, n, strides, esize);
  if (*len == 0) it->numel = 0;
}

static size_t plan_out_numel(const pk_reduce_plan *p) {
  size_t n = 1;
  for (size_t i = 0; i < p->out_dim; i++) n *= (size_t)p->out_sizes[i];
  return n;
}

static ptera_status check_nonempty(ptera_kernel_ctx *ctx, const char *op, const pk_reduce_plan *p) {
  if (p->reduced_numel == 0 && plan_out_numel(p) > 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: cannot reduce over a zero-size dimension of 'self'", op);
  return PTERA_OK;
}

ptera_status pk_amax_amin(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t nargs,
                          bool is_max) {
  ptera_tensor *in, *out;
  int64_t dims[PTERA_MAX_DIM];
  size_t ndims;
  bool keepdim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "dim", dims, PTERA_MAX_DIM, &ndims));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "keepdim", &keepdim));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, dims, ndims, true, keepdim, &p));
  PK_TRY(check_nonempty(ctx, op, &p));
  PK_TRY(pk_resize(ctx, op, "out", out, p.out_dim, p.out_sizes));
  if (!(is_max && pk_fast_reduce_f32(&p, in, out, keepdim, PK_FAST_MAX)))
    pk_extreme_reduce(&p, in, out, keepdim, is_max, false);
  return PTERA_OK;
}

ptera_status pk_max_min_dim(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                            size_t nargs, bool is_max) {
  ptera_tensor *in, *vals, *idx;
  int64_t dim;
  bool keepdim;
  const char *vn = is_max ? "max" : "min", *in_ = is_max ? "max_values" : "min_indices";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "keepdim", &keepdim));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, vn, &vals));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, in_, &idx));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, vn, vals));
  PK_TRY(pk_check_dtype(ctx, op, in_, idx, PTERA_DTYPE_LONG));
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, &dim, 1, true, keepdim, &p));
  PK_TRY(check_nonempty(ctx, op, &p));
  PK_TRY(pk_resize(ctx, op, vn, vals, p.out_dim, p.out_sizes));
  PK_TRY(pk_resize(ctx, op, in_, idx, p.out_dim, p.out_sizes));
  pk_extreme_reduce(&p, in, vals, keepdim, is_max, false);
  pk_extreme_reduce(&p, in, idx, keepdim, is_max, true);
  return PTERA_OK;
}

ptera_status pk_max_min_unary(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                              size_t nargs, bool is_max) {
  ptera_tensor *in, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  PK_TRY(pk_check_can_cast(ctx, op, in->dtype, "out", out));
  if (in->numel == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'self' is empty; the reduction has no identity", op);
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, NULL, 0, false, false, &p));
  PK_TRY(pk_resize(ctx, op, "out", out, p.out_dim, p.out_sizes));
  pk_extreme_reduce(&p, in, out, false, is_max, false);
  return PTERA_OK;
}

ptera_status pk_argmax_argmin(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                              size_t nargs, bool is_max) {
  ptera_tensor *in, *out;
  int64_t dim;
  bool has_dim, keepdim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_opt_int(ctx, op, args, 1, "dim", &dim, &has_dim));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "keepdim", &keepdim));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_check_dtype(ctx, op, "out", out, PTERA_DTYPE_LONG));
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, &dim, has_dim ? 1 : 0, has_dim, keepdim, &p));
  if (p.reduced_numel == 0 || (!has_dim && in->numel == 0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: cannot take the %s of an empty dimension", op,
                             is_max ? "argmax" : "argmin");
  PK_TRY(pk_resize(ctx, op, "out", out, p.out_dim, p.out_sizes));
  pk_extreme_reduce(&p, in, out, keepdim, is_max, true);
  return PTERA_OK;
}

#include "portable/util/reduce_ops.h"

#include "portable/util/fast_f32.h"

ptera_status pk_sum_mean(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, int dim_i,
                         int keepdim_i, int dtype_i, int out_i, bool mean) {
  ptera_tensor *in, *out;
  int64_t dims[PTERA_MAX_DIM];
  size_t ndims = 0;
  bool has_dims = false, keepdim = false, has_dtype;
  int dtype = 0;
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  if (dim_i >= 0)
    PK_TRY(pk_get_opt_int_list(ctx, op, args, (size_t)dim_i, "dim", dims, PTERA_MAX_DIM, &ndims,
                               &has_dims));
  if (keepdim_i >= 0) PK_TRY(pk_get_bool(ctx, op, args, (size_t)keepdim_i, "keepdim", &keepdim));
  PK_TRY(pk_get_opt_dtype(ctx, op, args, (size_t)dtype_i, "dtype", &dtype, &has_dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, (size_t)out_i, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  if (has_dtype) PK_TRY(pk_check_dtype(ctx, op, "out", out, dtype));
  if (mean) {
    PK_TRY(pk_check_float(ctx, op, "out", out));
    if (!has_dtype && !pk_is_float(in->dtype))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'self' has dtype %s; mean needs a floating input or 'dtype'",
                               op, ptera_dtype_name(in->dtype));
  } else if (!has_dtype) {
    PK_TRY(pk_check_can_cast(ctx, op, in->dtype, "out", out));
  }
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, dims, ndims, has_dims, keepdim, &p));
  PK_TRY(pk_resize(ctx, op, "out", out, p.out_dim, p.out_sizes));
  if (!pk_fast_reduce_f32(&p, in, out, keepdim, mean ? PK_FAST_MEAN : PK_FAST_SUM))
    pk_accumulate(&p, in, out, keepdim, mean ? PK_ACC_MEAN : PK_ACC_SUM);
  return PTERA_OK;
}

void pk_accumulate(const pk_reduce_plan *p, const ptera_tensor *in, ptera_tensor *out, bool keepdim,
                   pk_acc kind) {
  pk_iter outer, inner;
  pk_reduce_iters(p, in, out, keepdim, &outer, &inner);
  int id = in->dtype, od = out->dtype;
  const char *ib = (const char *)in->data;
  bool prod = kind == PK_ACC_PROD, mean = kind == PK_ACC_MEAN;
  switch (pk_compute_type(od)) {
    case PK_CT_F32:
      PK_ITER_FOR(outer) {
        float acc = prod ? 1.0f : 0.0f;
        const char *base = ib + outer.off[1];
        pk_iter_reset(&inner);
        PK_ITER_FOR(inner) {
          float x = pk_load_f32(base + inner.off[0], id);
          acc = prod ? acc * x : acc + x;
        }
        if (mean) acc = acc / (float)p->reduced_numel;
        pk_store_f32(PK_PTR(out->data, outer, 0), od, acc);
      }
      break;
    case PK_CT_F64:
      PK_ITER_FOR(outer) {
        double acc = prod ? 1.0 : 0.0;
        const char *base = ib + outer.off[1];
        pk_iter_reset(&inner);
        PK_ITER_FOR(inner) {
          double x = pk_load_f64(base + inner.off[0], id);
          acc = prod ? acc * x : acc + x;
        }
        if (mean) acc = acc / (double)p->reduced_numel;
        pk_store_f64(PK_PTR(out->data, outer, 0), od, acc);
      }
      break;
    case PK_CT_I64:
      PK_ITER_FOR(outer) {
        int64_t acc = prod ? 1 : 0;
        const char *base = ib + outer.off[1];
        pk_iter_reset(&inner);
        PK_ITER_FOR(inner) {
          int64_t x = pk_load_i64(base + inner.off[0], id);
          acc = prod ? pk_wmul(acc, x) : pk_wadd(acc, x);
        }
        pk_store_i64(PK_PTR(out->data, outer, 0), od, pk_wrap_to(acc, od));
      }
      break;
  }
}

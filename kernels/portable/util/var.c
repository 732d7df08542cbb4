#include "portable/util/var.h"

ptera_status pk_var_common(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                           int keepdim_i, double correction, int out_i, int mean_i) {
  ptera_tensor *in, *out, *mo = NULL;
  int64_t dims[PTERA_MAX_DIM];
  size_t ndims = 0;
  bool has_dims, keepdim;
  const char *on = mean_i >= 0 ? "out0" : "out";
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_opt_int_list(ctx, op, args, 1, "dim", dims, PTERA_MAX_DIM, &ndims, &has_dims));
  PK_TRY(pk_get_bool(ctx, op, args, (size_t)keepdim_i, "keepdim", &keepdim));
  PK_TRY(pk_get_tensor(ctx, op, args, (size_t)out_i, on, &out));
  if (mean_i >= 0) PK_TRY(pk_get_tensor(ctx, op, args, (size_t)mean_i, "out1", &mo));
  PK_TRY(pk_check_float(ctx, op, "self", in));
  PK_TRY(pk_check_float(ctx, op, on, out));
  PK_TRY(pk_check_can_cast(ctx, op, in->dtype, on, out));
  if (mo) PK_TRY(pk_check_same_dtype(ctx, op, on, out, "out1", mo));
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, dims, ndims, has_dims, keepdim, &p));
  PK_TRY(pk_resize(ctx, op, on, out, p.out_dim, p.out_sizes));
  if (mo) PK_TRY(pk_resize(ctx, op, "out1", mo, p.out_dim, p.out_sizes));
  pk_iter outer, inner;
  pk_reduce_iters(&p, in, out, keepdim, &outer, &inner);
  /* the mean output has out's dtype; when its layout differs, a second walk writes it */
  bool same = !mo || pk_same_layout(out, mo);
  int id = in->dtype, od = out->dtype;
  const char *ib = (const char *)in->data;
  double n = (double)p.reduced_numel, den = n - correction > 0.0 ? n - correction : 0.0;
  for (int pass = 0; pass < (same ? 1 : 2); pass++) {
    ptera_tensor *dst = pass == 0 ? out : mo;
    if (pass == 1) pk_reduce_iters(&p, in, mo, keepdim, &outer, &inner);
    switch (pk_compute_type(od)) {
      case PK_CT_F32:
        PK_ITER_FOR(outer) {
          const char *base = ib + outer.off[1];
          float sum = 0.0f, sq = 0.0f;
          pk_iter_reset(&inner);
          PK_ITER_FOR(inner) sum += pk_load_f32(base + inner.off[0], id);
          float mean = sum / (float)n;
          pk_iter_reset(&inner);
          PK_ITER_FOR(inner) {
            float d = pk_load_f32(base + inner.off[0], id) - mean;
            float d2 = d * d;
            sq += d2;
          }
          if (pass == 0) pk_store_f32(PK_PTR(dst->data, outer, 0), od, sq / (float)den);
          if (mo && (pass == 1 || same)) pk_store_f32(PK_PTR(mo->data, outer, 0), od, mean);
        }
        break;
      default:
        PK_ITER_FOR(outer) {
          const char *base = ib + outer.off[1];
          double sum = 0.0, sq = 0.0;
          pk_iter_reset(&inner);
          PK_ITER_FOR(inner) sum += pk_load_f64(base + inner.off[0], id);
          double mean = sum / n;
          pk_iter_reset(&inner);
          PK_ITER_FOR(inner) {
            double d = pk_load_f64(base + inner.off[0], id) - mean;
            double d2 = d * d;
            sq += d2;
          }
          if (pass == 0) pk_store_f64(PK_PTR(dst->data, outer, 0), od, sq / den);
          if (mo && (pass == 1 || same)) pk_store_f64(PK_PTR(mo->data, outer, 0), od, mean);
        }
        break;
    }
  }
  return PTERA_OK;
}

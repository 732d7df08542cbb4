/* aten::hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out):
 * clamps to [min_val, max_val] keeping the dtype (real self, no Bool); NaN propagates. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/fast_f32.h"

ptera_status pk_hardtanh_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::hardtanh.out";
  ptera_tensor *in, *out;
  pk_scalar lo, hi;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "min_val", &lo));
  PK_TRY(pk_get_scalar(ctx, op, args, 2, "max_val", &hi));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_same_dtype_resize(ctx, op, in, out));
  if (in->dtype == PTERA_DTYPE_FLOAT &&
      pk_fast_clamp_f32(ctx, in, (float)pk_scalar_f64(&lo), (float)pk_scalar_f64(&hi), out))
    return PTERA_OK;
  pk_iter it;
  pk_iter_init1(&it, out, in);
  int dt = in->dtype;
  switch (pk_compute_type(dt)) {
    case PK_CT_F32: {
      float l = (float)pk_scalar_f64(&lo), h = (float)pk_scalar_f64(&hi);
      PK_ITER_FOR(it) {
        float x = pk_load_f32(PK_PTR(in->data, it, 1), dt);
        if (x < l) x = l; /* NaN fails both tests and stays */
        if (x > h) x = h;
        pk_store_f32(PK_PTR(out->data, it, 0), dt, x);
      }
      break;
    }
    case PK_CT_F64: {
      double l = pk_scalar_f64(&lo), h = pk_scalar_f64(&hi);
      PK_ITER_FOR(it) {
        double x = pk_load_f64(PK_PTR(in->data, it, 1), dt);
        if (x < l) x = l;
        if (x > h) x = h;
        pk_store_f64(PK_PTR(out->data, it, 0), dt, x);
      }
      break;
    }
    case PK_CT_I64: {
      int64_t l = pk_scalar_i64(&lo), h = pk_scalar_i64(&hi);
      PK_ITER_FOR(it) {
        int64_t x = pk_load_i64(PK_PTR(in->data, it, 1), dt);
        if (x < l) x = l;
        if (x > h) x = h;
        pk_store_i64(PK_PTR(out->data, it, 0), dt, x);
      }
      break;
    }
  }
  return PTERA_OK;
}

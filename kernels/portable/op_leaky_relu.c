/* aten::leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out):
 * x > 0 ? x : x * negative_slope. Floating self; out of the same dtype. float32 is
 * computed in float. NaN propagates. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_leaky_relu_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::leaky_relu.out";
  ptera_tensor *in, *out;
  pk_scalar slope;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "negative_slope", &slope));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "self", in));
  PK_TRY(pk_same_dtype_resize(ctx, op, in, out));
  pk_iter it;
  pk_iter_init1(&it, out, in);
  int dt = in->dtype;
  if (pk_compute_type(dt) == PK_CT_F32) {
    float s = (float)pk_scalar_f64(&slope);
    PK_ITER_FOR(it) {
      float x = pk_load_f32(PK_PTR(in->data, it, 1), dt);
      pk_store_f32(PK_PTR(out->data, it, 0), dt, x > 0.0f ? x : x * s);
    }
  } else {
    double s = pk_scalar_f64(&slope);
    PK_ITER_FOR(it) {
      double x = pk_load_f64(PK_PTR(in->data, it, 1), dt);
      pk_store_f64(PK_PTR(out->data, it, 0), dt, x > 0.0 ? x : x * s);
    }
  }
  return PTERA_OK;
}

/* aten::elu.out(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *,
 * Tensor(a!) out): x > 0 ? x * scale : expm1(x * input_scale) * alpha * scale.
 * Floating self; out of the same dtype; computed in double. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_elu_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::elu.out";
  ptera_tensor *in, *out;
  pk_scalar alpha, scale, iscale;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "alpha", &alpha));
  PK_TRY(pk_get_scalar(ctx, op, args, 2, "scale", &scale));
  PK_TRY(pk_get_scalar(ctx, op, args, 3, "input_scale", &iscale));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  double a = pk_scalar_f64(&alpha), s = pk_scalar_f64(&scale), is = pk_scalar_f64(&iscale);
  pk_iter it;
  const ptera_tensor *ins[1] = {in};
  pk_iter_init(&it, out, ins, 1);
  int dt = in->dtype;
  PK_ITER_FOR(it) {
    double x = pk_load_f64(PK_PTR(in->data, it, 1), dt);
    pk_store_f64(PK_PTR(out->data, it, 0), dt, x > 0.0 ? x * s : expm1(x * is) * a * s);
  }
  return PTERA_OK;
}

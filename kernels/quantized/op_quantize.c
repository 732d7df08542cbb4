/* quantized_decomposed::quantize_per_tensor.out(Tensor input, float scale, int zero_point,
 * int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out):
 * q = clamp(zero_point + nearbyint(x * (1/scale)), quant_min, quant_max), in float as
 * ExecuTorch does (inv_scale = 1.0f / (float)scale). */
#include "builtin.h"
#include "quantized/quant_group.h"
#include "quantized/quant_util.h"

ptera_status pk_quantize_per_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::quantize_per_tensor.out";
  ptera_tensor *in, *out;
  double scale;
  int64_t zp, qmin, qmax;
  int dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_double(ctx, op, args, 1, "scale", &scale));
  PK_TRY(pk_get_int(ctx, op, args, 2, "zero_point", &zp));
  PK_TRY(pk_get_qparams(ctx, op, args, 3, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  PK_TRY(pk_check_quantize_io(ctx, op, in, dtype, qmin, qmax, out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  float inv = 1.0f / (float)scale;
  float zf = (float)(int32_t)zp;
  pk_iter it;
  const ptera_tensor *ins[1] = {in};
  pk_iter_init(&it, out, ins, 1);
  PK_ITER_FOR(it) {
    const char *xp = PK_PTR(in->data, it, 1);
    float prod = in->dtype == PTERA_DTYPE_DOUBLE ? (float)((double)inv * *(const double *)xp)
                                                 : inv * pk_load_f32(xp, in->dtype);
    float q = zf + nearbyintf(prod);
    int64_t v;
    if (q != q)
      v = qmin; /* NaN has no meaningful quantization; ExecuTorch's cast is undefined here */
    else if (q <= (float)qmin)
      v = qmin;
    else if (q >= (float)qmax)
      v = qmax;
    else
      v = (int64_t)q;
    pk_store_i64(PK_PTR(out->data, it, 0), dtype, v);
  }
  return PTERA_OK;
}

/* quantized_decomposed::quantize_per_tensor.Tensor_out(Tensor input, Tensor scale,
 * Tensor zero_point, int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out):
 * the same with one-element scale (Double/Float) and zero_point (Long/Int) tensors. */
ptera_status pk_quantize_per_tensor_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                               size_t nargs) {
  static const char op[] = "quantized_decomposed::quantize_per_tensor.Tensor_out";
  ptera_tensor *in, *scale, *zp, *out;
  int64_t qmin, qmax;
  int dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "scale", &scale));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "zero_point", &zp));
  PK_TRY(pk_get_qparams(ctx, op, args, 3, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  PK_TRY(pk_check_quantize_io(ctx, op, in, dtype, qmin, qmax, out));
  pk_qgroups g = {0, 1, scale, zp};
  PK_TRY(pk_qgroups_check(ctx, op, &g));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_quantize_groups(in, out, &g, qmin, qmax);
  return PTERA_OK;
}

/* quantized_decomposed::dequantize_per_tensor.out(Tensor input, float scale, int zero_point,
 * int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None,
 * Tensor(a!) out): out = (float)(int32)(q - zero_point) * (float)scale, as ExecuTorch. */
#include "builtin.h"
#include "quantized/quant_group.h"
#include "quantized/quant_util.h"

ptera_status pk_dequantize_per_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                          size_t nargs) {
  static const char op[] = "quantized_decomposed::dequantize_per_tensor.out";
  ptera_tensor *in, *out;
  double scale;
  int64_t zp, qmin, qmax;
  int dtype, out_dtype;
  bool has_out_dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_double(ctx, op, args, 1, "scale", &scale));
  PK_TRY(pk_get_int(ctx, op, args, 2, "zero_point", &zp));
  PK_TRY(pk_get_qparams(ctx, op, args, 3, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_opt_dtype(ctx, op, args, 6, "out_dtype", &out_dtype, &has_out_dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "out", &out));
  PK_TRY(pk_check_dequantize_io(ctx, op, in, dtype, qmin, qmax, out,
                                has_out_dtype ? out_dtype : -1));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  float sf = (float)scale;
  int32_t z = (int32_t)zp;
  pk_iter it;
  const ptera_tensor *ins[1] = {in};
  pk_iter_init(&it, out, ins, 1);
  PK_ITER_FOR(it) {
    int32_t q = (int32_t)pk_load_i64(PK_PTR(in->data, it, 1), dtype);
    int32_t c = (int32_t)((uint32_t)q - (uint32_t)z);
    pk_store_f32(PK_PTR(out->data, it, 0), out->dtype, (float)c * sf);
  }
  return PTERA_OK;
}

/* quantized_decomposed::dequantize_per_tensor.Tensor_out(Tensor input, Tensor scale,
 * Tensor zero_point, int quant_min, int quant_max, ScalarType dtype, *,
 * ScalarType? out_dtype=None, Tensor(a!) out): one-element scale / zero_point tensors. */
ptera_status pk_dequantize_per_tensor_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                 size_t nargs) {
  static const char op[] = "quantized_decomposed::dequantize_per_tensor.Tensor_out";
  ptera_tensor *in, *scale, *zp, *out;
  int64_t qmin, qmax;
  int dtype, out_dtype;
  bool has_out_dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "scale", &scale));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "zero_point", &zp));
  PK_TRY(pk_get_qparams(ctx, op, args, 3, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_opt_dtype(ctx, op, args, 6, "out_dtype", &out_dtype, &has_out_dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "out", &out));
  PK_TRY(pk_check_dequantize_io(ctx, op, in, dtype, qmin, qmax, out,
                                has_out_dtype ? out_dtype : -1));
  pk_qgroups g = {0, 1, scale, zp};
  PK_TRY(pk_qgroups_check(ctx, op, &g));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_dequantize_groups(in, out, &g);
  return PTERA_OK;
}

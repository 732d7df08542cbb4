/* quantized_decomposed::dequantize_per_token.out(Tensor input, Tensor scales,
 * Tensor zero_points, int quant_min, int quant_max, ScalarType dtype,
 * ScalarType output_dtype, *, Tensor(a!) out): per-token inverse of
 * quantize_per_token; out has output_dtype (a float dtype). */
#include "builtin.h"
#include "quantized/quant_group.h"

ptera_status pk_dequantize_per_token_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::dequantize_per_token.out";
  ptera_tensor *in, *scales, *zps, *out;
  int64_t qmin, qmax;
  int dtype, odt;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "scales", &scales));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "zero_points", &zps));
  PK_TRY(pk_get_qparams(ctx, op, args, 3, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_dtype(ctx, op, args, 6, "output_dtype", &odt));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "out", &out));
  PK_TRY(pk_check_dequantize_io(ctx, op, in, dtype, qmin, qmax, out, odt));
  pk_qgroups g;
  PK_TRY(pk_qgroups_token(ctx, op, in, scales, zps, &g));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_dequantize_groups(in, out, &g);
  return PTERA_OK;
}

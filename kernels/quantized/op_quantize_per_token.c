/* quantized_decomposed::quantize_per_token.out(Tensor input, Tensor scales,
 * Tensor zero_points, int quant_min, int quant_max, ScalarType dtype, *,
 * Tensor(a!) out): each token (a row along the last dim) has its own scale and
 * zero point; scales / zero_points hold one entry per token (shape [..., 1]). */
#include "builtin.h"
#include "quantized/quant_group.h"

ptera_status pk_quantize_per_token_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::quantize_per_token.out";
  ptera_tensor *in, *scales, *zps, *out;
  int64_t qmin, qmax;
  int dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "scales", &scales));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "zero_points", &zps));
  PK_TRY(pk_get_qparams(ctx, op, args, 3, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  PK_TRY(pk_check_quantize_io(ctx, op, in, dtype, qmin, qmax, out));
  pk_qgroups g;
  PK_TRY(pk_qgroups_token(ctx, op, in, scales, zps, &g));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_quantize_groups(in, out, &g, qmin, qmax);
  return PTERA_OK;
}

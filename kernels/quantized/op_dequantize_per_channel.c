/* quantized_decomposed::dequantize_per_channel.out(Tensor input, Tensor scales,
 * Tensor? zero_points, int axis, int quant_min, int quant_max, ScalarType dtype, *,
 * ScalarType? out_dtype=None, Tensor(a!) out): out = (q - zero_points[c]) *
 * (float)scales[c] for c the index along axis (zero point 0 when None). */
#include "builtin.h"
#include "quantized/quant_group.h"

ptera_status pk_dequantize_per_channel_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::dequantize_per_channel.out";
  ptera_tensor *in, *scales, *zps, *out;
  int64_t axis, qmin, qmax;
  int dtype, out_dtype;
  bool has_out_dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 10));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "scales", &scales));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "zero_points", &zps));
  PK_TRY(pk_get_int(ctx, op, args, 3, "axis", &axis));
  PK_TRY(pk_get_qparams(ctx, op, args, 4, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_opt_dtype(ctx, op, args, 7, "out_dtype", &out_dtype, &has_out_dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 8, "out", &out));
  PK_TRY(pk_check_dequantize_io(ctx, op, in, dtype, qmin, qmax, out,
                                has_out_dtype ? out_dtype : -1));
  pk_qgroups g;
  PK_TRY(pk_qgroups_axis(ctx, op, in, axis, scales, zps, &g));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_dequantize_groups(in, out, &g);
  return PTERA_OK;
}

/* quantized_decomposed::quantize_per_channel.out(Tensor input, Tensor scales,
 * Tensor zero_points, int axis, int quant_min, int quant_max, ScalarType dtype, *,
 * Tensor(a!) out): quantize_per_tensor with scales[c] / zero_points[c] for the
 * elements at index c along axis. */
#include "builtin.h"
#include "quantized/quant_group.h"

ptera_status pk_quantize_per_channel_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::quantize_per_channel.out";
  ptera_tensor *in, *scales, *zps, *out;
  int64_t axis, qmin, qmax;
  int dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "scales", &scales));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "zero_points", &zps));
  PK_TRY(pk_get_int(ctx, op, args, 3, "axis", &axis));
  PK_TRY(pk_get_qparams(ctx, op, args, 4, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "out", &out));
  PK_TRY(pk_check_quantize_io(ctx, op, in, dtype, qmin, qmax, out));
  pk_qgroups g;
  PK_TRY(pk_qgroups_axis(ctx, op, in, axis, scales, zps, &g));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_quantize_groups(in, out, &g, qmin, qmax);
  return PTERA_OK;
}

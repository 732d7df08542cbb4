/* cortex_m::dequantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min,
 * int quant_max, ScalarType dtype, *, Tensor(a!) out): Char or Short input (of dtype) to
 * Float, y = (float)(q - zero_point) * (float)scale (docs/CORTEX_M.md §3.2), computed by the
 * quantized_decomposed per-tensor path. */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "quantized/quant_group.h"
#include "quantized/quant_util.h"

ptera_status pk_cm_dequantize_per_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                             size_t nargs) {
  static const char op[] = "cortex_m::dequantize_per_tensor.out";
  ptera_tensor *in, *out;
  double scale;
  int32_t zp;
  int64_t qmin, qmax;
  int dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_double(ctx, op, args, 1, "scale", &scale));
  PK_TRY(pk_cm_get_int(ctx, op, args, 2, "zero_point", INT32_MIN, INT32_MAX, &zp));
  PK_TRY(pk_get_qparams(ctx, op, args, 3, &qmin, &qmax, &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  if (dtype != PTERA_DTYPE_CHAR && dtype != PTERA_DTYPE_SHORT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'dtype' must be Char or Short, got %s",
                             op, ptera_dtype_name(dtype));
  if (zp < qmin || zp > qmax)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'zero_point' %d is outside [quant_min, quant_max] = [%lld, %lld]",
                             op, (int)zp, (long long)qmin, (long long)qmax);
  PK_TRY(pk_check_dequantize_io(ctx, op, in, dtype, qmin, qmax, out, PTERA_DTYPE_FLOAT));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_qgroups g;
  pk_qscalar st;
  pk_qgroups_scalar(&g, &st, scale, zp);
  pk_dequantize_groups(in, out, &g);
  return PTERA_OK;
}

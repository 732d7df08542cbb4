/* cortex_m::quantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min,
 * int quant_max, ScalarType dtype, *, Tensor(a!) out): Float input to Char or Short,
 * q = clamp(zero_point + nearbyint((1.0f / (float)scale) * x), quant_min, quant_max)
 * (docs/CORTEX_M.md §3.1), computed by the quantized_decomposed per-tensor path. */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "quantized/quant_group.h"
#include "quantized/quant_util.h"

ptera_status pk_cm_quantize_per_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                           size_t nargs) {
  static const char op[] = "cortex_m::quantize_per_tensor.out";
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
  PK_TRY(pk_check_dtype(ctx, op, "input", in, PTERA_DTYPE_FLOAT));
  if (dtype != PTERA_DTYPE_CHAR && dtype != PTERA_DTYPE_SHORT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'dtype' must be Char or Short, got %s",
                             op, ptera_dtype_name(dtype));
  PK_TRY(pk_check_quantize_io(ctx, op, in, dtype, qmin, qmax, out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_qgroups g;
  pk_qscalar st;
  pk_qgroups_scalar(&g, &st, scale, zp);
  pk_quantize_groups(in, out, &g, qmin, qmax);
  return PTERA_OK;
}

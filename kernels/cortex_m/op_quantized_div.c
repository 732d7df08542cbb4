/* cortex_m::quantized_div.out(Tensor self, int self_zero_point, Tensor other,
 * int other_zero_point, int output_zero_point, float output_scale, *, Tensor(a!) out):
 * Char or Short tensors of one dtype and equal sizes; in float32 (docs/CORTEX_M.md §3.5)
 * q = d != 0 ? (float)(x1 - zp1) / (float)(x2 - zp2) : 0, y = roundf(q * eff) + zp_out
 * clamped to the dtype's range, eff = (float)output_scale. */
#include "builtin.h"
#include "cortex_m/cm_util.h"

ptera_status pk_cm_quantized_div_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "cortex_m::quantized_div.out";
  ptera_tensor *a, *b, *out;
  int32_t za, zb, zo;
  double eff;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "other", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  if (out->dtype != PTERA_DTYPE_CHAR && out->dtype != PTERA_DTYPE_SHORT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'out' must be Char or Short, got %s",
                             op, ptera_dtype_name(out->dtype));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", a, "out", out));
  PK_TRY(pk_check_same_dtype(ctx, op, "other", b, "out", out));
  bool wide = out->dtype == PTERA_DTYPE_SHORT;
  int32_t qlo = wide ? INT16_MIN : INT8_MIN, qhi = wide ? INT16_MAX : INT8_MAX;
  PK_TRY(pk_cm_get_int(ctx, op, args, 1, "self_zero_point", qlo, qhi, &za));
  PK_TRY(pk_cm_get_int(ctx, op, args, 3, "other_zero_point", qlo, qhi, &zb));
  PK_TRY(pk_cm_get_int(ctx, op, args, 4, "output_zero_point", qlo, qhi, &zo));
  PK_TRY(pk_get_double(ctx, op, args, 5, "output_scale", &eff));
  if (!isfinite((float)eff))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'output_scale' must be finite", op);
  pk_cm_binop bo;
  PK_TRY(pk_cm_binop_init(ctx, op, a, b, out, &bo));
  if (bo.c)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'self', 'other' and 'out' must have equal sizes", op);
  float ef = (float)eff, zf = (float)zo;
  for (size_t i = 0; i < out->numel; i++) {
    int32_t x = wide ? ((const int16_t *)a->data)[i] : ((const int8_t *)a->data)[i];
    int32_t y = wide ? ((const int16_t *)b->data)[i] : ((const int8_t *)b->data)[i];
    float q = y != zb ? (float)(x - za) / (float)(y - zb) : 0.0f;
    float r = roundf(q * ef) + zf;
    r = r < (float)qlo ? (float)qlo : r > (float)qhi ? (float)qhi : r;
    if (wide)
      ((int16_t *)out->data)[i] = (int16_t)r;
    else
      ((int8_t *)out->data)[i] = (int8_t)r;
  }
  return PTERA_OK;
}

/* cortex_m::quantized_mul.out(Tensor self, int self_zero_point, Tensor other,
 * int other_zero_point, int output_zero_point, int output_multiplier, int output_shift, *,
 * Tensor(a!) out): y = clamp(requant((x1 - zp1) * (x2 - zp2), m, s) + zp_out, -128, 127)
 * (CMSIS arm_elementwise_mul_s8; docs/CORTEX_M.md §3.4), shapes as quantized_add. */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

ptera_status pk_cm_quantized_mul_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "cortex_m::quantized_mul.out";
  ptera_tensor *a, *b, *out;
  int32_t za, zb, zo, m, s;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_cm_get_int(ctx, op, args, 1, "self_zero_point", INT8_MIN, INT8_MAX, &za));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 2, "other", &b));
  PK_TRY(pk_cm_get_int(ctx, op, args, 3, "other_zero_point", INT8_MIN, INT8_MAX, &zb));
  PK_TRY(pk_cm_get_int(ctx, op, args, 4, "output_zero_point", INT8_MIN, INT8_MAX, &zo));
  PK_TRY(pk_cm_get_requant(ctx, op, args, 5, 6, &m, &s));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 7, "out", &out));
  pk_cm_binop bo;
  PK_TRY(pk_cm_binop_init(ctx, op, a, b, out, &bo));
  for (size_t i = 0; i < bo.n; i++) {
    int32_t p = ((int32_t)bo.a[i % bo.a_mod] - za) * ((int32_t)bo.b[i % bo.b_mod] - zb);
    bo.out[i] = pk_cm_requant_out(p, m, s, zo, INT8_MIN, INT8_MAX);
  }
  return PTERA_OK;
}

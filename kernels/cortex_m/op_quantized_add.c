/* cortex_m::quantized_add.out(Tensor self, int self_zero_point, int self_multiplier,
 * int self_shift, Tensor other, int other_zero_point, int other_multiplier, int other_shift,
 * int output_zero_point, int output_multiplier, int output_shift, int activation_min,
 * int activation_max, *, Tensor(a!) out): CMSIS arm_elementwise_add_s8 with left shift 20
 * (docs/CORTEX_M.md §3.3):
 *   a = requant((x1 - zp1) << 20, m1, s1), b = requant((x2 - zp2) << 20, m2, s2),
 *   y = clamp(requant(a + b, m_out, s_out) + zp_out, act_min, act_max). */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

ptera_status pk_cm_quantized_add_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "cortex_m::quantized_add.out";
  ptera_tensor *a, *b, *out;
  int32_t za, ma, sa, zb, mb, sb, zo, mo, so, lo, hi;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 15));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_cm_get_int(ctx, op, args, 1, "self_zero_point", INT8_MIN, INT8_MAX, &za));
  PK_TRY(pk_cm_get_requant(ctx, op, args, 2, 3, &ma, &sa));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 4, "other", &b));
  PK_TRY(pk_cm_get_int(ctx, op, args, 5, "other_zero_point", INT8_MIN, INT8_MAX, &zb));
  PK_TRY(pk_cm_get_requant(ctx, op, args, 6, 7, &mb, &sb));
  PK_TRY(pk_cm_get_int(ctx, op, args, 8, "output_zero_point", INT8_MIN, INT8_MAX, &zo));
  PK_TRY(pk_cm_get_requant(ctx, op, args, 9, 10, &mo, &so));
  PK_TRY(pk_cm_get_clamp(ctx, op, args, 11, 12, &lo, &hi));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 13, "out", &out));
  pk_cm_binop bo;
  PK_TRY(pk_cm_binop_init(ctx, op, a, b, out, &bo));
  for (size_t i = 0; i < bo.n; i++) {
    int32_t x = pk_fx_requant(((int32_t)bo.a[i % bo.a_mod] - za) * (1 << 20), ma, sa);
    int32_t y = pk_fx_requant(((int32_t)bo.b[i % bo.b_mod] - zb) * (1 << 20), mb, sb);
    bo.out[i] = pk_cm_requant_out(pk_fx_add(x, y), mo, so, zo, lo, hi);
  }
  return PTERA_OK;
}

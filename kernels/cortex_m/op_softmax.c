/* cortex_m::softmax.out(Tensor input, int dim, int input_zero_point, int output_zero_point,
 * int input_multiplier, int input_shift, int diff_min, *, Tensor(a!) out): int8 softmax
 * over the last dim with CMSIS arm_softmax_s8's fixed-point algorithm (docs/CORTEX_M.md §3.9);
 * the output scale is 1/256 with zero point -128. */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

/* Rows longer than this could overflow the int32 sum of exponentials (2^19 each). */
#define MAX_ROW 4095

static int clz32(uint32_t v) {
  int n = 0;
  for (; n < 32 && !(v & 0x80000000u); n++) v <<= 1;
  return n;
}

ptera_status pk_cm_softmax_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "cortex_m::softmax.out";
  ptera_tensor *in, *out;
  int64_t dim;
  size_t d;
  int32_t zi, zo, mult, shift, diff_min;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_cm_get_int(ctx, op, args, 2, "input_zero_point", INT8_MIN, INT8_MAX, &zi));
  PK_TRY(pk_cm_get_int(ctx, op, args, 3, "output_zero_point", INT8_MIN, INT8_MAX, &zo));
  PK_TRY(pk_cm_get_int(ctx, op, args, 4, "input_multiplier", 0, INT32_MAX, &mult));
  PK_TRY(pk_cm_get_int(ctx, op, args, 5, "input_shift", 0, 31, &shift));
  PK_TRY(pk_cm_get_int(ctx, op, args, 6, "diff_min", INT32_MIN, 0, &diff_min));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 7, "out", &out));
  if (in->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' must have rank >= 1", op);
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, in->dim, &d));
  if (d != (size_t)in->dim - 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'dim' must be the last dimension", op);
  if (zo != -128)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'output_zero_point' must be -128, got %d",
                             op, (int)zo);
  if (!pk_same_layout(in, out))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'out' must have the shape of 'input'", op);
  PK_TRY(pk_cm_check_contiguous(ctx, op, "input", in));
  size_t len = (size_t)in->sizes[d];
  if (len > MAX_ROW)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: rows of %zu elements; at most %d are supported", op, len, MAX_ROW);
  if (in->numel == 0) return PTERA_OK;
  const int8_t *x = in->data;
  int8_t *y = out->data;
  for (size_t r = 0; r < in->numel / len; r++, x += len, y += len) {
    int32_t mx = x[0];
    for (size_t i = 1; i < len; i++) mx = x[i] > mx ? x[i] : mx;
    int32_t sum = 0;
    for (size_t i = 0; i < len; i++) {
      int32_t dv = x[i] - mx;
      if (dv >= diff_min)
        sum += pk_fx_rdiv_pot(pk_fx_exp_on_neg(pk_fx_dhm_sat(pk_fx_mul(dv, (int32_t)(1u << shift)), mult)), 12);
    }
    int h = clz32((uint32_t)sum);
    int32_t s = pk_fx_one_over_one_plus_x((int32_t)((uint32_t)((uint64_t)(uint32_t)sum << h) - 0x80000000u));
    int bits = 12 - h + 23;
    for (size_t i = 0; i < len; i++) {
      int32_t dv = x[i] - mx;
      int32_t v = -128;
      if (dv >= diff_min) {
        int32_t e = pk_fx_exp_on_neg(pk_fx_dhm_sat(pk_fx_mul(dv, (int32_t)(1u << shift)), mult));
        v = pk_fx_clamp(pk_fx_rdiv_pot(pk_fx_dhm_sat(s, e), bits) - 128, -128, 127);
      }
      y[i] = (int8_t)v;
    }
  }
  return PTERA_OK;
}

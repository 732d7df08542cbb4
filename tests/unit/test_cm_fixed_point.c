/* The CMSIS-NN fixed-point primitives of kernels/cortex_m/fixed_point.c
 * (CORTEX_M.md §2): exact values worked by hand for the rounding rules and
 * wrap-around, and exp / reciprocal against libm (exp within about 1e-7 of
 * full scale, the reciprocal within a few units in the last place). The
 * conformance suite checks the kernels bit-exactly. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "cortex_m/fixed_point.h"

static void test_rounding(void) {
  /* dhm: a*b/2^31, halves toward +inf (the saturating one's nudge does the same). */
  CHECK(pk_fx_dhm_nosat(3, 1 << 30) == 2);   /* 1.5 */
  CHECK(pk_fx_dhm_nosat(-3, 1 << 30) == -1); /* -1.5 */
  CHECK(pk_fx_dhm_nosat(INT32_MIN, INT32_MIN) == INT32_MIN); /* 2^31 wraps */
  CHECK(pk_fx_dhm_sat(INT32_MIN, INT32_MIN) == INT32_MAX);
  CHECK(pk_fx_dhm_sat(3, 1 << 30) == 2);
  CHECK(pk_fx_dhm_sat(-3, 1 << 30) == -1);
  CHECK(pk_fx_dhm_sat(-5, 1 << 30) == -2);   /* -2.5 */
  CHECK(pk_fx_dhm_sat(INT32_MAX, INT32_MAX) == INT32_MAX - 1);
  /* x / 2^e, halves away from zero. */
  CHECK(pk_fx_rdiv_pot(5, 1) == 3);
  CHECK(pk_fx_rdiv_pot(-5, 1) == -3);
  CHECK(pk_fx_rdiv_pot(-4, 1) == -2);
  CHECK(pk_fx_rdiv_pot(6, 2) == 2);
  CHECK(pk_fx_rdiv_pot(-6, 2) == -2);
  CHECK(pk_fx_rdiv_pot(-5, 2) == -1);
  CHECK(pk_fx_rdiv_pot(7, 0) == 7);
  CHECK(pk_fx_rdiv_pot(INT32_MIN, 31) == -1);
  CHECK(pk_fx_rdiv_pot(INT32_MAX, 31) == 1);
  CHECK(pk_fx_rdiv_pot(INT32_MIN, 32) == -1); /* -0.5 */
  CHECK(pk_fx_rdiv_pot(INT32_MAX, 32) == 0);
  /* requant: x * mult * 2^shift / 2^31 with both roundings. */
  CHECK(pk_fx_requant(100, 1 << 30, 0) == 50);
  CHECK(pk_fx_requant(101, 1 << 30, 0) == 51);
  CHECK(pk_fx_requant(-101, 1 << 30, 0) == -50);
  CHECK(pk_fx_requant(1000, 1 << 30, -2) == 125);
  CHECK(pk_fx_requant(1002, 1 << 30, -2) == 125);  /* 501 / 4 = 125.25 */
  CHECK(pk_fx_requant(1004, 1 << 30, -3) == 63);   /* 502 / 8 = 62.75 */
  CHECK(pk_fx_requant(-1004, 1 << 30, -3) == -63);
  CHECK(pk_fx_requant(-1000, 1 << 30, -4) == -31); /* -31.25 */
  CHECK(pk_fx_requant(-1016, 1 << 30, -4) == -32); /* -31.75 */
  CHECK(pk_fx_requant(-1008, 1 << 30, -4) == -32); /* -31.5 */
  CHECK(pk_fx_requant(3, 1 << 30, 2) == 6);
  CHECK(pk_fx_requant(1, 1 << 30, 31) == -(1 << 30)); /* 1 << 31 wraps to INT32_MIN */
  CHECK(pk_fx_requant(-7, INT32_MAX, -31) == 0);
}

static void test_exp(void) {
  CHECK(pk_fx_exp_on_neg(0) == INT32_MAX);
  double worst = 0;
  for (int64_t v = 0; v >= -((int64_t)32 << 26); v -= 9876543) {
    double want = exp((double)v / 67108864.0) * 2147483648.0;
    double err = fabs((double)pk_fx_exp_on_neg((int32_t)v) - want);
    if (err > worst) worst = err;
  }
  CHECK(worst <= 256.0); /* the polynomial's accuracy: about 1e-7 of full scale */
  double worst_r = 0;
  for (int64_t x = 0; x < ((int64_t)1 << 31); x += 12345679) {
    double want = 2147483648.0 / (1.0 + (double)x / 2147483648.0);
    if (want > INT32_MAX) want = INT32_MAX;
    double err = fabs((double)pk_fx_one_over_one_plus_x((int32_t)x) - want);
    if (err > worst_r) worst_r = err;
  }
  CHECK(worst_r <= 16.0);
  if (worst > 256.0 || worst_r > 16.0) printf("exp error %.1f, reciprocal error %.1f\n", worst, worst_r);
}

int main(void) {
  test_rounding();
  test_exp();
  return check_summary("cm_fixed_point");
}

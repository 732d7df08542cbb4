#include "cortex_m/fixed_point.h"

int32_t pk_fx_dhm_nosat(int32_t a, int32_t b) {
  int64_t t = (int64_t)a * b + ((int64_t)1 << 30);
  return (int32_t)(uint32_t)(uint64_t)(t >> 31); /* INT32_MIN^2 wraps as on hardware */
}

int32_t pk_fx_dhm_sat(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  int64_t nudge = (a < 0) != (b < 0) ? 1 - ((int64_t)1 << 30) : ((int64_t)1 << 30);
  return (int32_t)(((int64_t)a * b + nudge) / ((int64_t)1 << 31));
}

int32_t pk_fx_rdiv_pot(int32_t x, int e) {
  int64_t mask = ((int64_t)1 << e) - 1;
  int64_t rem = (int64_t)x & mask;
  int64_t r = (int64_t)x >> e;
  int64_t thr = (mask >> 1) + (r < 0 ? 1 : 0);
  return (int32_t)(rem > thr ? r + 1 : r);
}

int32_t pk_fx_requant(int32_t x, int32_t mult, int32_t shift) {
  int left = shift > 0 ? (int)shift : 0, right = shift < 0 ? (int)-shift : 0;
  int32_t scaled = (int32_t)((uint32_t)x << left);
  return pk_fx_rdiv_pot(pk_fx_dhm_nosat(scaled, mult), right);
}

int32_t pk_fx_exp_on_neg(int32_t v) {
  static const int32_t k[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  int32_t a = (int32_t)(v & ((1 << 24) - 1)) - (1 << 24);
  int32_t rem = pk_fx_sub(a, v);
  int32_t x = pk_fx_add(pk_fx_mul(a, 32), 1 << 28);
  int32_t x2 = pk_fx_dhm_sat(x, x);
  int32_t p = pk_fx_add(pk_fx_rdiv_pot(pk_fx_dhm_sat(x2, x2), 2), pk_fx_dhm_sat(x2, x));
  int32_t t = pk_fx_rdiv_pot(pk_fx_add(pk_fx_dhm_sat(p, 715827883), x2), 1);
  int32_t r = pk_fx_add(1895147668, pk_fx_dhm_sat(1895147668, pk_fx_add(x, t)));
  for (int j = 0; j < 7; j++)
    if (rem & (1 << (24 + j))) r = pk_fx_dhm_sat(r, k[j]);
  return v == 0 ? INT32_MAX : r;
}

/* Saturating v * 2^e, 1 <= e <= 30. */
static int32_t mul_pot(int32_t v, int e) {
  int32_t thr = (int32_t)((1u << (31 - e)) - 1u);
  return v > thr ? INT32_MAX : v < -thr ? INT32_MIN : (int32_t)((uint32_t)v << e);
}

int32_t pk_fx_one_over_one_plus_x(int32_t v) {
  int64_t s = (int64_t)v + INT32_MAX;
  int32_t hd = (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
  int32_t x = pk_fx_add(1515870810, pk_fx_dhm_sat(hd, -1010580540));
  for (int i = 0; i < 3; i++)
    x = pk_fx_add(x, mul_pot(pk_fx_dhm_sat(x, pk_fx_sub(1 << 29, pk_fx_dhm_sat(hd, x))), 2));
  return mul_pot(x, 1);
}

/* CMSIS-NN fixed-point arithmetic (scalar reference path, default build
 * options), shared by every cortex_m:: kernel; spec docs/CORTEX_M.md §2. All
 * results are what 32-bit two's complement hardware computes: intermediate
 * int32 products and sums wrap instead of being undefined. */
#ifndef PK_CM_FIXED_POINT_H
#define PK_CM_FIXED_POINT_H

#include <stdint.h>

#include "core/core.h"

/* a + b, a - b and a * b with int32 wrap-around. */
static inline int32_t pk_fx_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int32_t pk_fx_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static inline int32_t pk_fx_mul(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }
static inline int32_t pk_fx_clamp(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* Rounding doubling high multiply, round half toward +inf, no saturation. */
PT_FUNC int32_t pk_fx_dhm_nosat(int32_t a, int32_t b);
/* Saturating variant (round half away from zero); INT32_MIN * INT32_MIN = INT32_MAX. */
PT_FUNC int32_t pk_fx_dhm_sat(int32_t a, int32_t b);
/* x / 2^e rounded half away from zero, 0 <= e <= 62 (e > 31: the same rule in
 * 64 bits, which CMSIS leaves undefined). */
PT_FUNC int32_t pk_fx_rdiv_pot(int32_t x, int e);
/* x * mult * 2^shift / 2^31 with CMSIS double rounding; shift in [-31, 31]. */
PT_FUNC int32_t pk_fx_requant(int32_t x, int32_t mult, int32_t shift);
/* exp(v) for a Q5.26 v <= 0, Q0.31 result. */
PT_FUNC int32_t pk_fx_exp_on_neg(int32_t v);
/* 2^31 / (1 + x) for a Q0.31 x in [0, 2^31), saturating. */
PT_FUNC int32_t pk_fx_one_over_one_plus_x(int32_t v);

#endif

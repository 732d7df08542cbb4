/* Argument helpers and the shared quantization step of the cadence kernels
 * (internal to kernels/cadence). */
#ifndef PK_CADENCE_UTIL_H
#define PK_CADENCE_UTIL_H

#include <math.h>

#include "cadence/cadence.h"
#include "portable/util/pk.h"

/* An int[] of exactly two items (stride, padding, dilation). */
static inline ptera_status pkc_int_pair(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t i, const char *name, int64_t *out) {
  size_t n;
  PK_TRY(pk_get_int_list(ctx, op, args, i, name, out, 2, &n));
  if (n != 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' must have 2 items, got %zu", op,
                             name, n);
  return PTERA_OK;
}

/* Two's-complement narrowing, as C++ (int32_t)/(int16_t)/(int8_t) casts do
 * (written out because C leaves out-of-range signed conversion to the
 * implementation). */
static inline int32_t pkc_wrap_i32(int64_t v) {
  uint32_t u = (uint32_t)(uint64_t)v;
  return (u & 0x80000000u) ? -(int32_t)(~u) - 1 : (int32_t)u;
}
static inline int32_t pkc_wrap_bits(int64_t v, int bits, bool is_signed) {
  uint32_t mask = (bits >= 32) ? 0xffffffffu : ((1u << bits) - 1u);
  uint32_t u = (uint32_t)(uint64_t)v & mask;
  if (bits >= 32) return pkc_wrap_i32(v);
  if (is_signed && (u & (1u << (bits - 1)))) return (int32_t)u - (int32_t)(1u << bits);
  return (int32_t)u;
}

/* The generic kernels' quantize step for one value:
 *   q = (int64_t)((float)zero_point + nearbyintf(inv_scale * x)), clamped to [lo, hi]
 * all in float32. Converting NaN or a float outside int64's range is undefined
 * in C/C++; the reference build (x86-64) yields INT64_MIN there (cvttss2si's
 * "integer indefinite"), so such values end up at lo. We reproduce that. */
static inline int64_t pkc_quantize(float x, float inv_scale, int32_t zero_point, int64_t lo,
                                   int64_t hi) {
  float prod = inv_scale * x;
  float t = (float)zero_point + nearbyintf(prod);
  int64_t q;
  if (t >= -9223372036854775808.0f && t < 9223372036854775808.0f)
    q = (int64_t)t;
  else
    q = INT64_MIN;
  if (q < lo) q = lo;
  if (q > hi) q = hi;
  return q;
}

#endif

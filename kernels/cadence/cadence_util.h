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

/* The arguments of cadence::quantize_per_tensor.out and
 * dequantize_per_tensor.out: (input, scale, zero_point, quant_min, quant_max,
 * dtype, out, return). All eight are read and type-checked; quant_min,
 * quant_max, dtype and the return slot are unused by both kernels. */
static inline ptera_status pkc_qdq_args(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t nargs, ptera_tensor **in, ptera_tensor **out,
                                        double *scale, int64_t *zero_point) {
  ptera_tensor *ret = NULL;
  int64_t qmin = 0, qmax = 0, dtype = 0;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", in));
  PK_TRY(pk_get_double(ctx, op, args, 1, "scale", scale));
  PK_TRY(pk_get_int(ctx, op, args, 2, "zero_point", zero_point));
  PK_TRY(pk_get_int(ctx, op, args, 3, "quant_min", &qmin));
  PK_TRY(pk_get_int(ctx, op, args, 4, "quant_max", &qmax));
  PK_TRY(pk_get_int(ctx, op, args, 5, "dtype", &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", out));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "return", &ret));
  (void)qmin;
  (void)qmax;
  (void)dtype;
  (void)ret;
  return PTERA_OK;
}

/* The quantized side of those kernels (the tensor named `what`) must be Byte,
 * Char, Short, UInt16, Bits16 or Int. */
static inline ptera_status pkc_check_qdtype(ptera_kernel_ctx *ctx, const char *op, const char *what,
                                            const ptera_tensor *t) {
  switch (t->dtype) {
    case PTERA_DTYPE_BYTE: case PTERA_DTYPE_CHAR: case PTERA_DTYPE_SHORT:
    case PTERA_DTYPE_UINT16: case PTERA_DTYPE_BITS16: case PTERA_DTYPE_INT:
      return PTERA_OK;
    default:
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: %s dtype %s not supported (Byte, Char, Short, UInt16, "
                               "Bits16, Int)", op, what, ptera_dtype_name(t->dtype));
  }
}

/* Resizes out to in's shape; out must then share in's layout (shape and dim
 * order), as the kernels walk both flat. */
static inline ptera_status pkc_resize_like_input(ptera_kernel_ctx *ctx, const char *op,
                                                 const ptera_tensor *in, ptera_tensor *out) {
  if (ptera_tensor_resize(out, in->dim, in->sizes) != PTERA_OK)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: out cannot be resized to the input's shape", op);
  if (!pk_same_layout(in, out))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: out must have the input's shape and dim order", op);
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

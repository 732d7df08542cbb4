/* Argument access and the shared quantization step of the cadence kernels
 * (internal to kernels/cadence). */
#ifndef PK_CADENCE_UTIL_H
#define PK_CADENCE_UTIL_H

#include <math.h>

#include "cadence/cadence.h"

#define PKC_TRY(expr)                       \
  do {                                      \
    ptera_status pkc_st_ = (expr);          \
    if (pkc_st_ != PTERA_OK) return pkc_st_; \
  } while (0)

static inline ptera_status pkc_nargs(ptera_kernel_ctx *ctx, const char *op, size_t nargs,
                                     size_t want) {
  if (nargs != want)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: expected %zu arguments, got %zu",
                             op, want, nargs);
  return PTERA_OK;
}

static inline ptera_status pkc_tag(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t i, const char *name, int tag) {
  if (!args || !args[i] || args[i]->tag != tag)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: argument %zu (%s) must be %s, got %s",
                             op, i, name, ptera_tag_name(tag),
                             (args && args[i]) ? ptera_tag_name(args[i]->tag) : "nothing");
  return PTERA_OK;
}

static inline ptera_status pkc_tensor(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t i, const char *name, ptera_tensor **out) {
  PKC_TRY(pkc_tag(ctx, op, args, i, name, PTERA_TAG_TENSOR));
  ptera_tensor *t = args[i]->u.tensor;
  if (!t || t->dim > PTERA_MAX_DIM || (!t->data && t->numel > 0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: argument %zu (%s) has no tensor data",
                             op, i, name);
  *out = t;
  return PTERA_OK;
}

static inline ptera_status pkc_int(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t i, const char *name, int64_t *out) {
  PKC_TRY(pkc_tag(ctx, op, args, i, name, PTERA_TAG_INT));
  *out = args[i]->u.i;
  return PTERA_OK;
}

static inline ptera_status pkc_double(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t i, const char *name, double *out) {
  PKC_TRY(pkc_tag(ctx, op, args, i, name, PTERA_TAG_DOUBLE));
  *out = args[i]->u.d;
  return PTERA_OK;
}

/* An int[] of exactly want items. */
static inline ptera_status pkc_int_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t i, const char *name, size_t want, int64_t *out) {
  PKC_TRY(pkc_tag(ctx, op, args, i, name, PTERA_TAG_LIST_INT));
  const ptera_value *v = args[i];
  if (v->u.list.len != want || (want > 0 && !v->u.list.items))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: %s must have %zu items, got %zu", op,
                             name, want, v->u.list.len);
  for (size_t k = 0; k < want; k++) {
    const ptera_value *item = v->u.list.items[k];
    if (!item || item->tag != PTERA_TAG_INT)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: %s item %zu is not an Int", op,
                               name, k);
    out[k] = item->u.i;
  }
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

static inline bool pkc_same_dim_order(const ptera_tensor *a, const ptera_tensor *b) {
  if (a->dim != b->dim) return false;
  for (size_t i = 0; i < a->dim; i++)
    if (a->dim_order[i] != b->dim_order[i]) return false;
  return true;
}

#endif

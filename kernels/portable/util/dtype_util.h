/* Dtype traits, type promotion, load/store of any real dtype to a compute type. */
#ifndef PK_DTYPE_UTIL_H
#define PK_DTYPE_UTIL_H

#include <math.h>

#include "core/core.h"

/* PyTorch's promotion categories. */
typedef enum pk_category {
  PK_CAT_BOOL = 0,
  PK_CAT_INT = 1,
  PK_CAT_FLOAT = 2,
  PK_CAT_COMPLEX = 3,
  PK_CAT_OTHER = 4 /* quantized, bits, float8: no arithmetic */
} pk_category;

/* The type arithmetic runs in: float for half/bfloat16/float (ExecuTorch computes
 * those in float, and float32 results must match bit for bit), double for double,
 * int64 (wrapping) for integers and bool. */
typedef enum pk_ctype { PK_CT_F32 = 0, PK_CT_F64 = 1, PK_CT_I64 = 2 } pk_ctype;

PT_FUNC pk_category pk_dtype_category(int dt);
static inline bool pk_is_float(int dt) { return pk_dtype_category(dt) == PK_CAT_FLOAT; }
static inline bool pk_is_int(int dt) { return pk_dtype_category(dt) == PK_CAT_INT; }
static inline bool pk_is_bool(int dt) { return dt == PTERA_DTYPE_BOOL; }
/* Integers and floats (no bool, no complex). */
static inline bool pk_is_real(int dt) {
  pk_category c = pk_dtype_category(dt);
  return c == PK_CAT_INT || c == PK_CAT_FLOAT;
}
/* Integers, floats and bool: every dtype the load/store helpers accept. */
static inline bool pk_is_real_or_bool(int dt) { return pk_dtype_category(dt) <= PK_CAT_FLOAT; }
static inline bool pk_is_unsigned(int dt) {
  return dt == PTERA_DTYPE_BYTE || dt == PTERA_DTYPE_UINT16 || dt == PTERA_DTYPE_UINT32 ||
         dt == PTERA_DTYPE_UINT64;
}
/* Integer range of an integer dtype (bool: 0..1). */
PT_FUNC void pk_int_range(int dt, int64_t *min, int64_t *max);

PT_FUNC pk_ctype pk_compute_type(int dt);

/* PyTorch promoteTypes over real and bool dtypes; -1 when undefined (complex,
 * quantized, or unsigned 16/32/64-bit mixed with a signed type that cannot hold it). */
PT_FUNC int pk_promote_types(int a, int b);
/* PyTorch canCast: no float->integral, no non-bool->bool, no complex->real. */
PT_FUNC bool pk_can_cast(int from, int to);

/* A Scalar argument (Int, Double or Bool value). */
typedef struct pk_scalar {
  uint8_t tag; /* PTERA_TAG_INT / PTERA_TAG_DOUBLE / PTERA_TAG_BOOL */
  int64_t i;
  double d;
} pk_scalar;

static inline pk_category pk_scalar_category(const pk_scalar *s) {
  return s->tag == PTERA_TAG_DOUBLE ? PK_CAT_FLOAT : s->tag == PTERA_TAG_INT ? PK_CAT_INT
                                                                             : PK_CAT_BOOL;
}
static inline double pk_scalar_f64(const pk_scalar *s) {
  return s->tag == PTERA_TAG_DOUBLE ? s->d : (double)s->i;
}
PT_FUNC int64_t pk_f64_to_i64(double v); /* truncating, saturating, NaN -> 0 */
static inline int64_t pk_scalar_i64(const pk_scalar *s) {
  return s->tag == PTERA_TAG_DOUBLE ? pk_f64_to_i64(s->d) : s->i;
}
static inline bool pk_scalar_bool(const pk_scalar *s) {
  return s->tag == PTERA_TAG_DOUBLE ? s->d != 0.0 : s->i != 0;
}
/* The dtype a Scalar has on its own (Bool, Long or Double). */
static inline int pk_scalar_dtype(const pk_scalar *s) {
  return s->tag == PTERA_TAG_DOUBLE ? PTERA_DTYPE_DOUBLE
         : s->tag == PTERA_TAG_INT  ? PTERA_DTYPE_LONG
                                    : PTERA_DTYPE_BOOL;
}
/* Result type of (tensor of dtype dt) op (scalar): the tensor's dtype unless the
 * scalar is of a higher category (then Long for an int, Float for a double). */
PT_FUNC int pk_promote_scalar(int dt, const pk_scalar *s);

/* ---- Element load/store. p points at one element of dtype dt (a real or bool dtype;
 * callers validate dtypes first). Float->int conversions truncate and saturate. ---- */
static inline double pk_load_f64(const void *p, int dt) {
  switch (dt) {
    case PTERA_DTYPE_BYTE: return *(const uint8_t *)p;
    case PTERA_DTYPE_CHAR: return *(const int8_t *)p;
    case PTERA_DTYPE_SHORT: return *(const int16_t *)p;
    case PTERA_DTYPE_INT: return *(const int32_t *)p;
    case PTERA_DTYPE_LONG: return (double)*(const int64_t *)p;
    case PTERA_DTYPE_HALF: return pt_half_to_float(*(const uint16_t *)p);
    case PTERA_DTYPE_FLOAT: return *(const float *)p;
    case PTERA_DTYPE_DOUBLE: return *(const double *)p;
    case PTERA_DTYPE_BOOL: return *(const uint8_t *)p ? 1.0 : 0.0;
    case PTERA_DTYPE_BFLOAT16: return pt_bf16_to_float(*(const uint16_t *)p);
    case PTERA_DTYPE_UINT16: return *(const uint16_t *)p;
    case PTERA_DTYPE_UINT32: return *(const uint32_t *)p;
    case PTERA_DTYPE_UINT64: return (double)*(const uint64_t *)p;
    default: return 0.0;
  }
}

static inline int64_t pk_load_i64(const void *p, int dt) {
  switch (dt) {
    case PTERA_DTYPE_BYTE: return *(const uint8_t *)p;
    case PTERA_DTYPE_CHAR: return *(const int8_t *)p;
    case PTERA_DTYPE_SHORT: return *(const int16_t *)p;
    case PTERA_DTYPE_INT: return *(const int32_t *)p;
    case PTERA_DTYPE_LONG: return *(const int64_t *)p;
    case PTERA_DTYPE_BOOL: return *(const uint8_t *)p ? 1 : 0;
    case PTERA_DTYPE_UINT16: return *(const uint16_t *)p;
    case PTERA_DTYPE_UINT32: return *(const uint32_t *)p;
    case PTERA_DTYPE_UINT64: return (int64_t)*(const uint64_t *)p; /* wraps */
    case PTERA_DTYPE_HALF:
    case PTERA_DTYPE_FLOAT:
    case PTERA_DTYPE_DOUBLE:
    case PTERA_DTYPE_BFLOAT16: return pk_f64_to_i64(pk_load_f64(p, dt));
    default: return 0;
  }
}

static inline float pk_load_f32(const void *p, int dt) {
  switch (dt) {
    case PTERA_DTYPE_FLOAT: return *(const float *)p;
    case PTERA_DTYPE_HALF: return pt_half_to_float(*(const uint16_t *)p);
    case PTERA_DTYPE_BFLOAT16: return pt_bf16_to_float(*(const uint16_t *)p);
    case PTERA_DTYPE_LONG: return (float)*(const int64_t *)p;
    case PTERA_DTYPE_UINT64: return (float)*(const uint64_t *)p;
    default: return (float)pk_load_f64(p, dt);
  }
}

static inline bool pk_load_bool(const void *p, int dt) {
  if (pk_is_float(dt)) return pk_load_f64(p, dt) != 0.0;
  return pk_load_i64(p, dt) != 0;
}

static inline void pk_store_i64(void *p, int dt, int64_t v) {
  switch (dt) {
    case PTERA_DTYPE_BYTE: *(uint8_t *)p = (uint8_t)v; break;
    case PTERA_DTYPE_CHAR: *(int8_t *)p = (int8_t)v; break;
    case PTERA_DTYPE_SHORT: *(int16_t *)p = (int16_t)v; break;
    case PTERA_DTYPE_INT: *(int32_t *)p = (int32_t)v; break;
    case PTERA_DTYPE_LONG: *(int64_t *)p = v; break;
    case PTERA_DTYPE_HALF: *(uint16_t *)p = pt_float_to_half((float)v); break;
    case PTERA_DTYPE_FLOAT: *(float *)p = (float)v; break;
    case PTERA_DTYPE_DOUBLE: *(double *)p = (double)v; break;
    case PTERA_DTYPE_BOOL: *(uint8_t *)p = v != 0; break;
    case PTERA_DTYPE_BFLOAT16: *(uint16_t *)p = pt_float_to_bf16((float)v); break;
    case PTERA_DTYPE_UINT16: *(uint16_t *)p = (uint16_t)v; break;
    case PTERA_DTYPE_UINT32: *(uint32_t *)p = (uint32_t)v; break;
    case PTERA_DTYPE_UINT64: *(uint64_t *)p = (uint64_t)v; break;
    default: break;
  }
}

static inline void pk_store_f64(void *p, int dt, double v) {
  switch (dt) {
    case PTERA_DTYPE_HALF: *(uint16_t *)p = pt_float_to_half((float)v); break;
    case PTERA_DTYPE_FLOAT: *(float *)p = (float)v; break;
    case PTERA_DTYPE_DOUBLE: *(double *)p = v; break;
    case PTERA_DTYPE_BFLOAT16: *(uint16_t *)p = pt_float_to_bf16((float)v); break;
    case PTERA_DTYPE_BOOL: *(uint8_t *)p = v != 0.0; break;
    case PTERA_DTYPE_UINT64:
      *(uint64_t *)p = v >= 9223372036854775808.0 ? (v >= 18446744073709551615.0 ? UINT64_MAX
                                                     : (uint64_t)v)
                                                  : (uint64_t)pk_f64_to_i64(v);
      break;
    default: pk_store_i64(p, dt, pk_f64_to_i64(v)); break;
  }
}

static inline void pk_store_f32(void *p, int dt, float v) {
  switch (dt) {
    case PTERA_DTYPE_FLOAT: *(float *)p = v; break;
    case PTERA_DTYPE_HALF: *(uint16_t *)p = pt_float_to_half(v); break;
    case PTERA_DTYPE_BFLOAT16: *(uint16_t *)p = pt_float_to_bf16(v); break;
    default: pk_store_f64(p, dt, (double)v); break;
  }
}

/* Copies one element converting dtypes (exact whenever the value fits). */
static inline void pk_convert_elem(void *dst, int ddt, const void *src, int sdt) {
  if (pk_is_float(sdt) || pk_is_float(ddt) || sdt == PTERA_DTYPE_UINT64)
    pk_store_f64(dst, ddt, pk_load_f64(src, sdt));
  else
    pk_store_i64(dst, ddt, pk_load_i64(src, sdt));
}

/* Wrapping int64 arithmetic (no signed-overflow UB). */
static inline int64_t pk_wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t pk_wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t pk_wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
/* Reduces an int64 result to the value range of integer dtype dt (wraps like a store). */
PT_FUNC int64_t pk_wrap_to(int64_t v, int dt);

#endif

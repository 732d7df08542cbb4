#include "portable/util/dtype_util.h"

pk_category pk_dtype_category(int dt) {
  switch (dt) {
    case PTERA_DTYPE_BOOL: return PK_CAT_BOOL;
    case PTERA_DTYPE_BYTE:
    case PTERA_DTYPE_CHAR:
    case PTERA_DTYPE_SHORT:
    case PTERA_DTYPE_INT:
    case PTERA_DTYPE_LONG:
    case PTERA_DTYPE_UINT16:
    case PTERA_DTYPE_UINT32:
    case PTERA_DTYPE_UINT64: return PK_CAT_INT;
    case PTERA_DTYPE_HALF:
    case PTERA_DTYPE_FLOAT:
    case PTERA_DTYPE_DOUBLE:
    case PTERA_DTYPE_BFLOAT16: return PK_CAT_FLOAT;
    case PTERA_DTYPE_COMPLEX_HALF:
    case PTERA_DTYPE_COMPLEX_FLOAT:
    case PTERA_DTYPE_COMPLEX_DOUBLE: return PK_CAT_COMPLEX;
    default: return PK_CAT_OTHER;
  }
}

void pk_int_range(int dt, int64_t *min, int64_t *max) {
  switch (dt) {
    case PTERA_DTYPE_BYTE: *min = 0; *max = UINT8_MAX; break;
    case PTERA_DTYPE_CHAR: *min = INT8_MIN; *max = INT8_MAX; break;
    case PTERA_DTYPE_SHORT: *min = INT16_MIN; *max = INT16_MAX; break;
    case PTERA_DTYPE_INT: *min = INT32_MIN; *max = INT32_MAX; break;
    case PTERA_DTYPE_UINT16: *min = 0; *max = UINT16_MAX; break;
    case PTERA_DTYPE_UINT32: *min = 0; *max = UINT32_MAX; break;
    case PTERA_DTYPE_UINT64: *min = 0; *max = INT64_MAX; break;
    case PTERA_DTYPE_BOOL: *min = 0; *max = 1; break;
    default: *min = INT64_MIN; *max = INT64_MAX; break;
  }
}

pk_ctype pk_compute_type(int dt) {
  switch (dt) {
    case PTERA_DTYPE_HALF:
    case PTERA_DTYPE_BFLOAT16:
    case PTERA_DTYPE_FLOAT: return PK_CT_F32;
    case PTERA_DTYPE_DOUBLE: return PK_CT_F64;
    default: return PK_CT_I64;
  }
}

int64_t pk_f64_to_i64(double v) {
  if (v != v) return 0;
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)v;
}

int64_t pk_wrap_to(int64_t v, int dt) {
  switch (dt) {
    case PTERA_DTYPE_BYTE: return (uint8_t)v;
    case PTERA_DTYPE_CHAR: return (int8_t)v;
    case PTERA_DTYPE_SHORT: return (int16_t)v;
    case PTERA_DTYPE_INT: return (int32_t)v;
    case PTERA_DTYPE_UINT16: return (uint16_t)v;
    case PTERA_DTYPE_UINT32: return (uint32_t)v;
    case PTERA_DTYPE_BOOL: return v != 0;
    default: return v;
  }
}

/* Bits of an integer dtype; signedness via pk_is_unsigned. */
static int int_bits(int dt) {
  switch (dt) {
    case PTERA_DTYPE_BYTE:
    case PTERA_DTYPE_CHAR: return 8;
    case PTERA_DTYPE_SHORT:
    case PTERA_DTYPE_UINT16: return 16;
    case PTERA_DTYPE_INT:
    case PTERA_DTYPE_UINT32: return 32;
    default: return 64;
  }
}

static int float_rank(int dt) {
  switch (dt) {
    case PTERA_DTYPE_HALF: return 1;
    case PTERA_DTYPE_BFLOAT16: return 1;
    case PTERA_DTYPE_FLOAT: return 2;
    default: return 3; /* double */
  }
}

int pk_promote_types(int a, int b) {
  pk_category ca = pk_dtype_category(a), cb = pk_dtype_category(b);
  if (ca > PK_CAT_FLOAT || cb > PK_CAT_FLOAT) return -1;
  if (a == b) return a;
  if (ca == PK_CAT_BOOL) return b;
  if (cb == PK_CAT_BOOL) return a;
  if (ca == PK_CAT_FLOAT && cb == PK_CAT_FLOAT) {
    int ra = float_rank(a), rb = float_rank(b);
    if (ra == rb) return PTERA_DTYPE_FLOAT; /* half with bfloat16 */
    return ra > rb ? a : b;
  }
  if (ca == PK_CAT_FLOAT) return a;
  if (cb == PK_CAT_FLOAT) return b;
  /* both integers, different */
  bool ua = pk_is_unsigned(a), ub = pk_is_unsigned(b);
  int ba = int_bits(a), bb = int_bits(b);
  if (ua == ub) return ba >= bb ? a : b;
  int u = ua ? a : b, s = ua ? b : a;
  int bu = int_bits(u), bs = int_bits(s);
  if (bs > bu) return s;
  if (u == PTERA_DTYPE_BYTE) return PTERA_DTYPE_SHORT; /* uint8 with int8 */
  return -1; /* uint16/32/64 with a signed type that cannot hold them */
}

bool pk_can_cast(int from, int to) {
  pk_category cf = pk_dtype_category(from), ct = pk_dtype_category(to);
  if (cf > PK_CAT_COMPLEX || ct > PK_CAT_COMPLEX) return from == to;
  if (cf == PK_CAT_COMPLEX && ct != PK_CAT_COMPLEX) return false;
  if (cf == PK_CAT_FLOAT && ct < PK_CAT_FLOAT) return false;
  if (cf != PK_CAT_BOOL && ct == PK_CAT_BOOL) return false;
  return true;
}

int pk_promote_scalar(int dt, const pk_scalar *s) {
  pk_category ct = pk_dtype_category(dt), cs = pk_scalar_category(s);
  if (ct > PK_CAT_FLOAT) return -1;
  if (cs <= ct) return dt;
  return cs == PK_CAT_FLOAT ? PTERA_DTYPE_FLOAT : PTERA_DTYPE_LONG;
}

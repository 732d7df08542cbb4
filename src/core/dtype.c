/* Dtype sizes and names, tag names, half/bfloat16 conversions. */
#include <math.h>

#include "core/core.h"

static const uint8_t dtype_sizes[PTERA_DTYPE_COUNT] = {
    1, 1, 2, 4, 8, 2, 4, 8, /* Byte..Double */
    4, 8, 16,               /* complex half/float/double */
    1, 1, 1, 4,             /* Bool, QInt8, QUInt8, QInt32 */
    2,                      /* BFloat16 */
    1, 1, 1, 1, 1, 1, 2,    /* QUInt4x2, QUInt2x4, Bits1x8, Bits2x4, Bits4x2, Bits8, Bits16 */
    1, 1, 1, 1,             /* Float8 variants */
    2, 4, 8                 /* UInt16, UInt32, UInt64 */
};

static const char *const dtype_names[PTERA_DTYPE_COUNT] = {
    "Byte",        "Char",          "Short",         "Int",           "Long",
    "Half",        "Float",         "Double",        "ComplexHalf",   "ComplexFloat",
    "ComplexDouble", "Bool",        "QInt8",         "QUInt8",        "QInt32",
    "BFloat16",    "QUInt4x2",      "QUInt2x4",      "Bits1x8",       "Bits2x4",
    "Bits4x2",     "Bits8",         "Bits16",        "Float8_e5m2",   "Float8_e4m3fn",
    "Float8_e5m2fnuz", "Float8_e4m3fnuz", "UInt16",  "UInt32",        "UInt64"};

size_t ptera_dtype_size(int dtype) {
  if (dtype < 0 || dtype >= PTERA_DTYPE_COUNT) return 0;
  return dtype_sizes[dtype];
}

const char *ptera_dtype_name(int dtype) {
  if (dtype < 0 || dtype >= PTERA_DTYPE_COUNT) return "Unknown";
  return dtype_names[dtype];
}

const char *ptera_tag_name(int tag) {
  switch (tag) {
    case PTERA_TAG_NONE: return "None";
    case PTERA_TAG_TENSOR: return "Tensor";
    case PTERA_TAG_STRING: return "String";
    case PTERA_TAG_DOUBLE: return "Double";
    case PTERA_TAG_INT: return "Int";
    case PTERA_TAG_BOOL: return "Bool";
    case PTERA_TAG_LIST_BOOL: return "ListBool";
    case PTERA_TAG_LIST_DOUBLE: return "ListDouble";
    case PTERA_TAG_LIST_INT: return "ListInt";
    case PTERA_TAG_LIST_TENSOR: return "ListTensor";
    case 10: return "ListScalar";
    case PTERA_TAG_LIST_OPTIONAL_TENSOR: return "ListOptionalTensor";
    default: return "Unknown";
  }
}

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

float pt_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return bits_f32(sign | 0x7f800000u | (man << 13)); /* inf / nan */
  if (exp == 0) {
    if (man == 0) return bits_f32(sign);
    /* subnormal: man * 2^-24 */
    float v = (float)man * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bits_f32(sign | ((exp + 112u) << 23) | (man << 13));
}

uint16_t pt_float_to_half(float f) {
  uint32_t u = f32_bits(f);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  uint32_t absu = u & 0x7fffffffu;
  if (absu >= 0x7f800000u) { /* inf or nan */
    if (absu > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((absu >> 13) & 0x3ffu));
    return (uint16_t)(sign | 0x7c00u);
  }
  if (absu >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to >= 65520: inf */
  if (absu < 0x38800000u) { /* below the smallest normal half (2^-14): subnormal or zero */
    /* value = absf; half subnormal unit = 2^-24; round to nearest even */
    float a = bits_f32(absu);
    float scaled = a * 16777216.0f; /* a / 2^-24, exact (power of two) */
    float r = nearbyintf(scaled);   /* default rounding mode: nearest even */
    return (uint16_t)(sign | (uint16_t)r);
  }
  uint32_t mant = absu & 0x7fffffu;
  uint32_t exp = (absu >> 23) - 112u;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++;
  return (uint16_t)(sign | h);
}

float pt_bf16_to_float(uint16_t h) { return bits_f32((uint32_t)h << 16); }

uint16_t pt_float_to_bf16(float f) {
  uint32_t u = f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u); /* quiet nan */
  uint32_t lsb = (u >> 16) & 1u;
  u += 0x7fffu + lsb;
  return (uint16_t)(u >> 16);
}

float ptera_half_to_float(uint16_t bits) { return pt_half_to_float(bits); }
uint16_t ptera_float_to_half(float value) { return pt_float_to_half(value); }
float ptera_bfloat16_to_float(uint16_t bits) { return pt_bf16_to_float(bits); }
uint16_t ptera_float_to_bfloat16(float value) { return pt_float_to_bf16(value); }

/* Element access and memory-order conversion for the tool. */
#include <string.h>

#include "cli.h"

/* Copies element by element between logical order and the strided memory order. */
static void copy_strided(const ptera_tensor *t, const uint8_t *src, uint8_t *dst, bool to_memory) {
  size_t es = ptera_dtype_size(t->dtype);
  size_t idx[PTERA_MAX_DIM] = {0};
  for (size_t n = 0; n < t->numel; n++) {
    size_t off = 0;
    for (size_t d = 0; d < t->dim; d++) off += idx[d] * (size_t)t->strides[d];
    if (to_memory) memcpy(dst + off * es, src + n * es, es);
    else memcpy(dst + n * es, src + off * es, es);
    for (size_t d = t->dim; d-- > 0;) {
      if (++idx[d] < (size_t)t->sizes[d]) break;
      idx[d] = 0;
    }
  }
}

void cli_to_memory_order(const ptera_tensor *t, const void *logical, void *memory) {
  if (ptera_tensor_is_contiguous(t)) memcpy(memory, logical, ptera_tensor_nbytes(t));
  else copy_strided(t, logical, memory, true);
}

void cli_from_memory_order(const ptera_tensor *t, const void *memory, void *logical) {
  if (ptera_tensor_is_contiguous(t)) memcpy(logical, memory, ptera_tensor_nbytes(t));
  else copy_strided(t, memory, logical, false);
}

double cli_element(int dtype, const void *data, size_t i) {
  const uint8_t *p = data;
  switch (dtype) {
    case PTERA_DTYPE_BYTE: case PTERA_DTYPE_QUINT8: return p[i];
    case PTERA_DTYPE_CHAR: case PTERA_DTYPE_QINT8: return ((const int8_t *)data)[i];
    case PTERA_DTYPE_SHORT: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case PTERA_DTYPE_INT: case PTERA_DTYPE_QINT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case PTERA_DTYPE_LONG: { int64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    case PTERA_DTYPE_HALF: { uint16_t v; memcpy(&v, p + 2 * i, 2); return ptera_half_to_float(v); }
    case PTERA_DTYPE_BFLOAT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return ptera_bfloat16_to_float(v); }
    case PTERA_DTYPE_FLOAT: { float v; memcpy(&v, p + 4 * i, 4); return v; }
    case PTERA_DTYPE_DOUBLE: { double v; memcpy(&v, p + 8 * i, 8); return v; }
    case PTERA_DTYPE_BOOL: return p[i] != 0;
    case PTERA_DTYPE_UINT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case PTERA_DTYPE_UINT32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case PTERA_DTYPE_UINT64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    default: return p[i * (ptera_dtype_size(dtype) ? ptera_dtype_size(dtype) : 1)];
  }
}

void cli_format_shape(char *buf, size_t cap, int dtype, size_t dim, const int32_t *sizes) {
  size_t used = (size_t)snprintf(buf, cap, "%s[", ptera_dtype_name(dtype));
  for (size_t d = 0; d < dim && used < cap; d++)
    used += (size_t)snprintf(buf + used, cap - used, "%s%d", d ? ", " : "", sizes[d]);
  if (used < cap) snprintf(buf + used, cap - used, "]");
}

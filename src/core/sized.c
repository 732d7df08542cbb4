/* Sized structs: reading caller options and writing caller info structs of
 * any version (ptera/export.h). */
#include "core/core.h"

static size_t size_of(const void *s) {
  size_t n;
  memcpy(&n, s, sizeof n);
  return n;
}

ptera_status pt_struct_in(void *dst, size_t dst_size, const void *src, size_t min_size,
                          const char *type, pt_err *err) {
  size_t n = size_of(src);
  if (n < min_size)
    return pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "%s.struct_size is %zu, below the %zu bytes of its first version "
                   "(initialise it with its PTERA_..._INIT macro)",
                   type, n, min_size);
  const unsigned char *s = src;
  for (size_t i = dst_size; i < n; i++)
    if (s[i])
      return pt_fail(err, PTERA_NOT_SUPPORTED,
                     "%s sets a field at byte %zu that this library (%zu-byte struct) does not "
                     "know; it is older than the headers the caller was built with",
                     type, i, dst_size);
  memset(dst, 0, dst_size);
  memcpy(dst, src, n < dst_size ? n : dst_size);
  memcpy(dst, &dst_size, sizeof dst_size);
  return PTERA_OK;
}

ptera_status pt_struct_out(void *dst, const void *src, size_t src_size, size_t min_size) {
  size_t n = size_of(dst);
  if (n < min_size) return PTERA_INVALID_ARGUMENT;
  size_t k = n < src_size ? n : src_size;
  memcpy((unsigned char *)dst + sizeof n, (const unsigned char *)src + sizeof n, k - sizeof n);
  return PTERA_OK;
}

/* Where program and data bytes come from: a caller buffer used in place, a
 * library-owned copy, or a read-only file mapping (src/platform/). */

#include "runtime/runtime.h"

ptera_status pr_bytes_from_buffer(pr_bytes *b, const void *data, size_t size,
                                  const ptera_allocator *a, pt_err *err) {
  memset(b, 0, sizeof *b);
  b->allocator = a;
  if (!data || size == 0) return pt_fail(err, PTERA_INVALID_ARGUMENT, "empty buffer");
  if (((uintptr_t)data & 15u) == 0) {
    b->data = data;
    b->size = size;
    return PTERA_OK;
  }
  void *copy = pt_alloc(a, size, 64);
  if (!copy)
    return pt_fail(err, PTERA_MEMORY_ALLOCATION_FAILED,
                   "cannot allocate %zu bytes to align an unaligned buffer", size);
  memcpy(copy, data, size);
  b->owned = copy;
  b->data = copy;
  b->size = size;
  return PTERA_OK;
}

void pr_bytes_release(pr_bytes *b) {
  if (b->map) pr_bytes_unmap(b->map, b->size);
  pt_free(b->allocator, b->owned);
  memset(b, 0, sizeof *b);
}

/* The allocator a method hands its delegates at init: the method's own,
 * keeping count of the bytes they hold, which the memory report adds to the
 * packed bytes (backends keep packed weights there). */
#include "runtime/runtime.h"

/* Each block carries its size and its padding in front of the data. */
typedef struct pr_block_header {
  size_t size, offset;
} pr_block_header;

static void *counting_alloc(void *user, size_t size, size_t align) {
  ptera_method *m = user;
  if (align < 16) align = 16;
  if (align & (align - 1)) return NULL;
  size_t offset = (sizeof(pr_block_header) + align - 1) & ~(align - 1);
  if (size > SIZE_MAX / 2 - offset) return NULL;
  uint8_t *base = pt_alloc(m->allocator, offset + size, align);
  if (!base) return NULL;
  pr_block_header h = {size, offset};
  memcpy(base + offset - sizeof h, &h, sizeof h);
  m->delegate_bytes += size;
  return base + offset;
}

static void counting_free(void *user, void *p) {
  ptera_method *m = user;
  if (!p) return;
  pr_block_header h;
  memcpy(&h, (uint8_t *)p - sizeof h, sizeof h);
  m->delegate_bytes -= h.size;
  pt_free(m->allocator, (uint8_t *)p - h.offset);
}

void pr_method_init_delegate_allocator(ptera_method *m) {
  m->delegate_allocator = (ptera_allocator){counting_alloc, counting_free, m};
}

/* The API names before 0.2, kept for one release as aliases of their
 * ptera_<object>_<verb> replacements (the headers mark them deprecated).
 * Remove this file with them. */
#define PTERA_NO_DEPRECATION_WARNINGS
#include "ptera/alloc.h"
#include "ptera/backend.h"
#include "ptera/kernel.h"

ptera_status ptera_register_kernels(const ptera_kernel_entry *entries, size_t count) {
  return ptera_kernel_register(entries, count);
}

ptera_status ptera_register_kernel_defs(const ptera_kernel_def *defs, size_t count) {
  return ptera_kernel_register_defs(defs, count);
}

ptera_kernel_fn ptera_find_kernel(const char *name, size_t name_len) {
  return ptera_kernel_find(name, name_len);
}

ptera_status ptera_register_backend(const ptera_backend *backend) {
  return ptera_backend_register(backend);
}

const ptera_backend *ptera_find_backend(const char *name, size_t name_len) {
  return ptera_backend_find(name, name_len);
}

const ptera_allocator *ptera_default_allocator(void) { return ptera_allocator_default(); }

/* The platform layer of a PTERA_NO_FS build: no files. Programs and data
 * come from buffers (ptera_program_load_buffer, ptera_program_load_callback,
 * ptera_program_attach_data_buffer). */
#include "runtime/runtime.h"

ptera_status pr_bytes_map_file(pr_bytes *b, const char *path, uint64_t max_size,
                               const ptera_allocator *a, pt_err *err) {
  memset(b, 0, sizeof *b);
  b->allocator = a;
  return pt_fail(err, PTERA_NOT_SUPPORTED,
                 "this build has no file system (PTERA_NO_FS): load from a buffer or a read callback");
}

void pr_bytes_unmap(void *map, uint64_t size) {}

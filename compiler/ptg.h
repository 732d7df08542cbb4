/* Reader and writer of the PTG graph interchange (docs/PTG.md). Prefix pc_. */
#ifndef PTERA_COMPILER_PTG_H
#define PTERA_COMPILER_PTG_H

#include "graph.h"

/* A parsed .ptg: its methods in file order. */
typedef struct pc_module {
  pc_graph **methods;
  uint32_t nmethods;
  const ptera_allocator *allocator;
} pc_module;

/* Parses size bytes of a .ptg. On failure returns InvalidArgument (or
 * MemoryAllocationFailed) with a message naming the line, and out is empty.
 * Constant data is copied into the graphs; bytes may be freed afterwards. */
PT_FUNC ptera_status pc_ptg_parse(const uint8_t *bytes, size_t size,
                                  const ptera_allocator *allocator, pc_module *out, pt_err *err);

/* Writes m as .ptg text plus data section into *out (allocated with the
 * module's allocator; free with pt_free). Removed nodes and values nothing
 * refers to are still written (ids are kept). */
PT_FUNC ptera_status pc_ptg_write(const pc_module *m, uint8_t **out, size_t *out_size, pt_err *err);

PT_FUNC void pc_module_free(pc_module *m);

#endif

/* Target op sets (opset.h), read from kernels/opsets.def and ops.def. */
#include "opset.h"

#include <string.h>

#include "runtime/tables.h"

typedef enum { LIB_PORTABLE = PC_OPSET_EXECUTORCH_PORTABLE,
               LIB_OPTIMIZED = PC_OPSET_EXECUTORCH_OPTIMIZED } opset_lib;

typedef struct opset_entry {
  const char *name;
  opset_lib lib;
} opset_entry;

static const opset_entry opset_table[] = {
#define PTERA_OPSET(name, lib) {name, LIB_##lib},
#include "opsets.def"
#undef PTERA_OPSET
};

const char *pc_opset_name(pc_opset set) {
  switch (set) {
    case PC_OPSET_EXECUTORCH_PORTABLE: return "executorch-portable";
    case PC_OPSET_EXECUTORCH_OPTIMIZED: return "executorch-optimized";
    case PC_OPSET_PTERA: return "ptera";
  }
  return "?";
}

bool pc_opset_parse(const char *s, pc_opset *out) {
  static const pc_opset all[] = {PC_OPSET_EXECUTORCH_PORTABLE, PC_OPSET_EXECUTORCH_OPTIMIZED,
                                 PC_OPSET_PTERA};
  for (size_t i = 0; s && i < sizeof all / sizeof *all; i++)
    if (strcmp(s, pc_opset_name(all[i])) == 0) {
      *out = all[i];
      return true;
    }
  return false;
}

static bool registered(const char *op) {
  for (size_t i = 0; i < pk_builtin_kernel_count; i++)
    if (strcmp(pk_builtin_kernels[i].name, op) == 0) return true;
  return false;
}

bool pc_opset_contains(pc_opset set, const char *op) {
  if (!op || !registered(op)) return false;
  if (set == PC_OPSET_PTERA) return true;
  for (size_t i = 0; i < sizeof opset_table / sizeof *opset_table; i++)
    if (strcmp(opset_table[i].name, op) == 0) return (int)opset_table[i].lib <= (int)set;
  return false;
}

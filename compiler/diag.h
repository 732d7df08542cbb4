/* Compiler warnings (prefix pc_diag): lines a pass leaves for the caller
 * instead of printing them, e.g. a tensor a quantizer leaves alone. The
 * driver points each graph's diag at one list (graph.h) and hands the text
 * to the caller in the compile result (compile.h). */
#ifndef PTERA_COMPILER_DIAG_H
#define PTERA_COMPILER_DIAG_H

#include "core/core.h"

typedef struct pc_diag {
  const ptera_allocator *allocator;
  char *text;      /* the warnings, each line ending in '\n'; NULL when none */
  size_t len, cap;
  uint32_t count;  /* lines in text */
  uint32_t dropped; /* warnings lost to a failed allocation */
} pc_diag;

/* Adds one warning line (printf format, no trailing newline); d may be NULL. */
PT_FUNC void pc_diag_warn(pc_diag *d, const char *fmt, ...) PT_PRINTF(2, 3);

PT_FUNC void pc_diag_free(pc_diag *d);

#endif

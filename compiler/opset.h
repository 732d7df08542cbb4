/* Target op sets (prefix pc_): which operators a compiled program may call,
 * so that the file runs where it is meant to run.
 *
 *   executorch-portable   what ExecuTorch's portable, prim and quantized
 *                         libraries register: the file runs on a stock
 *                         executor_runner (the default);
 *   executorch-optimized  those plus ExecuTorch's optimized-library entries
 *                         (aten::linear.out);
 *   ptera                 every kernel ptera registers (kernels/ops.def).
 *
 * The membership comes from one table, kernels/opsets.def (keyed by operator
 * name, next to ops.def); passes ask pc_opset_contains instead of keeping
 * their own lists. The set constrains kernel calls, i.e. what runs on the
 * CPU; a call lowered to a delegate is the backend's business. */
#ifndef PTERA_COMPILER_OPSET_H
#define PTERA_COMPILER_OPSET_H

#include "core/core.h"

typedef enum pc_opset {
  PC_OPSET_EXECUTORCH_PORTABLE = 0, /* the default: zero-initialised options get it */
  PC_OPSET_EXECUTORCH_OPTIMIZED = 1,
  PC_OPSET_PTERA = 2
} pc_opset;

/* "executorch-portable", "executorch-optimized", "ptera". */
PT_FUNC const char *pc_opset_name(pc_opset set);

/* Parses one of those names; false when s is none of them. */
PT_FUNC bool pc_opset_parse(const char *s, pc_opset *out);

/* Whether op ("aten::add.out") is in set. Every member is a registered
 * built-in kernel. */
PT_FUNC bool pc_opset_contains(pc_opset set, const char *op);

#endif

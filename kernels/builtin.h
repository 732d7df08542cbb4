/* The built-in kernel table, generated from ops.def, and every built-in kernel's
 * prototype. */
#ifndef PK_BUILTIN_H
#define PK_BUILTIN_H

#include "core/core.h"
#include "ptera/kernel.h"

#define PTERA_OP(name, fn) PT_FUNC ptera_status fn(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);
#define PTERA_OP_PREPARED(name, fn, prepare)                                             \
  PTERA_OP(name, fn)                                                                     \
  PT_FUNC ptera_status prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs);
#include "ops.def"
#undef PTERA_OP_PREPARED
#undef PTERA_OP

/* Sorted as in ops.def; the runtime resolves names against it. */
PT_FUNC extern const ptera_kernel_def pk_builtin_kernels[];
PT_FUNC extern const size_t pk_builtin_kernel_count;

#endif

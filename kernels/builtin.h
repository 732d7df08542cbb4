/* Every built-in kernel's prototype, from ops.def (the table itself is
 * declared for the runtime in src/runtime/tables.h). */
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

#endif

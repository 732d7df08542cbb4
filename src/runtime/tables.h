/* The built-in tables the runtime is handed at link time: the kernel table
 * (kernels/builtin.c over kernels/ops.def, or the subset a
 * -DPTERA_SELECTED_OPS build keeps) and the backend table
 * (backends/builtin_backends.c). The runtime knows them only through these
 * declarations, never the kernel or backend layers' headers. */
#ifndef PTERA_RUNTIME_TABLES_H
#define PTERA_RUNTIME_TABLES_H

#include "core/core.h"
#include "ptera/backend.h"
#include "ptera/kernel.h"

/* Sorted as in ops.def; the runtime resolves names against it after the
 * registered user kernels. */
PT_FUNC extern const ptera_kernel_def pk_builtin_kernels[];
PT_FUNC extern const size_t pk_builtin_kernel_count;

/* Found by ptera_backend_find after the registered backends. */
PT_FUNC extern const ptera_backend *const pb_builtin_backends[];
PT_FUNC extern const size_t pb_builtin_backend_count;

#endif

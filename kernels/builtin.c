#include "builtin.h"
#include "runtime/tables.h"

const ptera_kernel_def pk_builtin_kernels[] = {
#define PTERA_OP(name, fn) {PTERA_KERNEL_ABI_VERSION, name, fn, NULL},
#define PTERA_OP_PREPARED(name, fn, prepare) {PTERA_KERNEL_ABI_VERSION, name, fn, prepare},
/* PTERA_OPS_TABLE: the ops.def lines a -DPTERA_SELECTED_OPS build keeps. */
#ifdef PTERA_OPS_TABLE
#include PTERA_OPS_TABLE
#else
#include "ops.def"
#endif
#undef PTERA_OP_PREPARED
#undef PTERA_OP
};

const size_t pk_builtin_kernel_count = sizeof pk_builtin_kernels / sizeof pk_builtin_kernels[0];

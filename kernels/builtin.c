#include "builtin.h"

const ptera_kernel_entry pk_builtin_kernels[] = {
#define PTERA_OP(name, fn) {name, fn},
#include "ops.def"
#undef PTERA_OP
};

const size_t pk_builtin_kernel_count = sizeof pk_builtin_kernels / sizeof pk_builtin_kernels[0];

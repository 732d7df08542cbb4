/* The context a kernel runs in (opaque to kernels; tests build one too). */
#ifndef PTERA_RUNTIME_KERNEL_CTX_H
#define PTERA_RUNTIME_KERNEL_CTX_H

#include "core/core.h"
#include "ptera/kernel.h"

struct ptera_kernel_ctx {
  const char *op_name;
  pt_err *err;
  uint8_t *temp; /* scratch arena, reset before each kernel */
  size_t temp_size;
  size_t temp_used;
};

/* A context over a scratch buffer (temp may be NULL with temp_size 0). */
PT_FUNC void pr_kernel_ctx_init(ptera_kernel_ctx *ctx, const char *op_name, pt_err *err,
                                void *temp, size_t temp_size);

#endif

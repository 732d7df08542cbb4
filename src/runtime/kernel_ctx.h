/* The contexts a kernel runs and prepares in (opaque to kernels; tests build
 * a run context too). */
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
  void *state;   /* from the instruction's prepare step, or NULL */
  ptera_threadpool *pool; /* the method's, or NULL */
};

/* A context over a scratch buffer (temp may be NULL with temp_size 0), with
 * no prepared state and no thread pool. */
PT_FUNC void pr_kernel_ctx_init(ptera_kernel_ctx *ctx, const char *op_name, pt_err *err,
                                void *temp, size_t temp_size);

/* One prepare-time allocation; the data follows at offset. */
typedef struct pr_packed {
  struct pr_packed *next;
} pr_packed;

struct ptera_kernel_prepare_ctx {
  const char *op_name;
  pt_err *err;
  const ptera_allocator *allocator;
  pr_packed **packed;   /* the method's list */
  size_t *packed_bytes; /* the method's count */
  size_t threads;
  void *state;
  size_t workspace;
};

#endif

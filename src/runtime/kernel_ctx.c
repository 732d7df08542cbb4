#include <stdarg.h>
#include <stdio.h>

#include "runtime/kernel_ctx.h"

void pr_kernel_ctx_init(ptera_kernel_ctx *ctx, const char *op_name, pt_err *err, void *temp,
                        size_t temp_size) {
  ctx->op_name = op_name;
  ctx->err = err;
  ctx->temp = temp;
  ctx->temp_size = temp ? temp_size : 0;
  ctx->temp_used = 0;
  ctx->state = NULL;
  ctx->pool = NULL;
}

#if PTERA_STRIP_MESSAGES
ptera_status ptera_kernel_fail_status(ptera_kernel_ctx *ctx, ptera_status status) {
  return pt_fail(ctx ? ctx->err : NULL, status, "");
}
#else
ptera_status ptera_kernel_fail(ptera_kernel_ctx *ctx, ptera_status status, const char *fmt, ...) {
  if (ctx && ctx->err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err->msg, sizeof ctx->err->msg, fmt, ap);
    va_end(ap);
    ctx->err->status = status;
  }
  return status;
}
#endif

void *ptera_kernel_temp(ptera_kernel_ctx *ctx, size_t size, size_t align) {
  if (!ctx || align == 0 || (align & (align - 1))) return NULL;
  uintptr_t base = (uintptr_t)ctx->temp;
  size_t start = ctx->temp_used;
  while ((base + start) & (align - 1)) start++;
  if (start > ctx->temp_size || size > ctx->temp_size - start) return NULL;
  ctx->temp_used = start + size;
  return ctx->temp + start;
}

const char *ptera_kernel_op_name(const ptera_kernel_ctx *ctx) { return ctx ? ctx->op_name : ""; }

void *ptera_kernel_state(const ptera_kernel_ctx *ctx) { return ctx ? ctx->state : NULL; }

void ptera_kernel_parallel_for(ptera_kernel_ctx *ctx, size_t n, size_t grain, ptera_task_fn fn,
                               void *arg) {
  ptera_threadpool_parallel_for(ctx ? ctx->pool : NULL, n, grain, fn, arg);
}

size_t ptera_kernel_thread_count(const ptera_kernel_ctx *ctx) {
  return ptera_threadpool_size(ctx ? ctx->pool : NULL);
}

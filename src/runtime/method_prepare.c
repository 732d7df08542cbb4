/* Method load, last step: each KERNEL instruction whose kernel has a prepare
 * step runs it once (kernel.h), over the materialised values. What prepare
 * allocates belongs to the method and is counted as packed bytes. */
#include <stdarg.h>
#include <stdio.h>

#include "runtime/fuse.h"
#include "runtime/kernel_ctx.h"

void *ptera_kernel_prepare_alloc(ptera_kernel_prepare_ctx *ctx, size_t size, size_t align) {
  if (!ctx || align == 0 || align > 4096 || (align & (align - 1))) return NULL;
  if (align < 16) align = 16;
  /* The list link sits in front of the data, padded to the alignment. */
  size_t offset = (sizeof(pr_packed) + align - 1) & ~(align - 1);
  if (size > SIZE_MAX / 2 - offset) return NULL;
  pr_packed *p = pt_calloc(ctx->allocator, 1, offset + size, align);
  if (!p) return NULL;
  p->next = *ctx->packed;
  *ctx->packed = p;
  *ctx->packed_bytes += size;
  return (uint8_t *)p + offset;
}

void ptera_kernel_prepare_set_state(ptera_kernel_prepare_ctx *ctx, void *state) {
  if (ctx) ctx->state = state;
}

void ptera_kernel_prepare_workspace(ptera_kernel_prepare_ctx *ctx, size_t bytes) {
  if (ctx) ctx->workspace = bytes;
}

#if PTERA_STRIP_MESSAGES
ptera_status ptera_kernel_prepare_fail_status(ptera_kernel_prepare_ctx *ctx, ptera_status st) {
  return pt_fail(ctx ? ctx->err : NULL, st, "");
}
#else
ptera_status ptera_kernel_prepare_fail(ptera_kernel_prepare_ctx *ctx, ptera_status st,
                                       const char *fmt, ...) {
  if (ctx && ctx->err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err->msg, sizeof ctx->err->msg, fmt, ap);
    va_end(ap);
    ctx->err->status = st;
  }
  return st;
}
#endif

size_t ptera_kernel_prepare_thread_count(const ptera_kernel_prepare_ctx *ctx) {
  return ctx && ctx->threads ? ctx->threads : 1;
}

const char *ptera_kernel_prepare_op_name(const ptera_kernel_prepare_ctx *ctx) {
  return ctx ? ctx->op_name : "";
}

static ptera_status prepare_one(ptera_method *m, const pf_instr *in, ptera_value **argv, uint32_t k,
                                void **state) {
  const char *op = m->op_names[in->a];
  ptera_kernel_prepare_ctx ctx = {op, &m->err, m->allocator, &m->packed, &m->packed_bytes,
                                  ptera_threadpool_size(m->pool), NULL, 0};
  pt_err_clear(&m->err);
  ptera_status st = m->prepares[in->a](&ctx, argv, in->nargs);
  if (st != PTERA_OK) {
    if (!m->err.msg[0]) pt_fail(&m->err, st, "%s", ptera_status_name(st));
    m->err.status = st;
    pt_err_prefix(&m->err, "method '%s' instruction %u (%s): prepare failed", m->plan->name.ptr, k,
                  op);
    return st;
  }
  *state = ctx.state;
  if (ctx.workspace > m->max_workspace) m->max_workspace = ctx.workspace;
  return PTERA_OK;
}

ptera_status pr_method_index_instructions(ptera_method *m) {
  const pf_plan *plan = m->plan;
  size_t total = 0;
  for (uint32_t c = 0; c < plan->nchains; c++) total += plan->chains[c].ninstrs;
  m->states = pt_arena_array(&m->arena, total ? total : 1, sizeof *m->states, 8);
  if (!m->states) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  return PTERA_OK;
}

ptera_status pr_method_prepare(ptera_method *m) {
  const pf_plan *plan = m->plan;
  for (uint32_t c = 0; c < plan->nchains; c++)
    for (uint32_t k = 0; k < plan->chains[c].ninstrs; k++) {
      const pr_fused *g = pr_method_fused_at(m, c, k);
      if (g) { /* the group's own prepare ran */
        k += g->span - 1;
        continue;
      }
      const pf_instr *in = &plan->chains[c].instrs[k];
      if (in->type != PF_INSTR_KERNEL || !m->prepares[in->a]) continue;
      size_t at = m->chain_base[c] + k;
      ptera_status st = prepare_one(m, in, m->argv[at], k, &m->states[at]);
      if (st != PTERA_OK) return st;
    }
  pt_err_clear(&m->err);
  return PTERA_OK;
}

void pr_method_release_prepared(ptera_method *m) {
  pr_packed *p = m->packed;
  while (p) {
    pr_packed *next = p->next;
    pt_free(m->allocator, p);
    p = next;
  }
  m->packed = NULL;
  m->packed_bytes = 0;
}

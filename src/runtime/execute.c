/* Method execution (EXECUTION.md §6). No heap allocation happens here. */
#include "runtime/fuse.h"
#include "runtime/kernel_ctx.h"

/* Every tensor an instruction reads must have memory (a hostile program can
 * leave a tensor unplanned and unbound). The last argument is the return
 * slot (or et_view's out, whose pointer the op sets), so it is skipped. */
static ptera_status check_args_bound(ptera_method *m, const pf_instr *in, uint32_t k) {
  for (uint32_t j = 0; j + 1 < in->nargs; j++) {
    const ptera_value *v = &m->values[in->args[j]];
    size_t n = 1;
    if (v->tag == PTERA_TAG_LIST_TENSOR || v->tag == PTERA_TAG_LIST_OPTIONAL_TENSOR)
      n = v->u.list.len;
    else if (v->tag != PTERA_TAG_TENSOR)
      continue;
    for (size_t i = 0; i < n; i++) {
      const ptera_value *t = v->tag == PTERA_TAG_TENSOR ? v : v->u.list.items[i];
      if (t && t->tag == PTERA_TAG_TENSOR && !t->u.tensor->data && t->u.tensor->numel &&
          ptera_dtype_size(t->u.tensor->dtype))
        return pt_fail(&m->err, PTERA_INVALID_STATE,
                       "method '%s' instruction %u: argument %u is a tensor with no memory "
                       "(an unplanned output needs ptera_method_set_output_buffer)",
                       m->plan->name.ptr, k, j);
    }
  }
  return PTERA_OK;
}

/* Whether v is (or lists) read-only program data. */
static bool is_const(const ptera_value *v) {
  if (v->tag == PTERA_TAG_TENSOR) return (v->u.tensor->flags & PTERA_TENSOR_CONST) != 0;
  if (v->tag != PTERA_TAG_LIST_TENSOR) return false;
  for (size_t i = 0; i < v->u.list.len; i++)
    if (v->u.list.items[i] && v->u.list.items[i]->tag == PTERA_TAG_TENSOR &&
        (v->u.list.items[i]->u.tensor->flags & PTERA_TENSOR_CONST))
      return true;
  return false;
}

ptera_status pr_check_writable(ptera_method *m, const pf_instr *in, uint32_t k) {
  const ptera_value *written = &m->values[in->args[m->writes_first[in->a] ? 0 : in->nargs - 1]];
  if (!is_const(written)) return PTERA_OK;
  return pt_fail(&m->err, PTERA_INVALID_PROGRAM,
                 "method '%s' instruction %u (%s) writes into constant program data",
                 m->plan->name.ptr, k, m->op_names[in->a]);
}

static ptera_status run_kernel(ptera_method *m, const pf_instr *in, uint32_t c, uint32_t k) {
  ptera_status st = check_args_bound(m, in, k);
  if (st == PTERA_OK) st = pr_check_writable(m, in, k);
  if (st != PTERA_OK) return st;
  ptera_kernel_ctx ctx;
  pr_kernel_ctx_init(&ctx, m->op_names[in->a], &m->err, m->temp, m->temp_size);
  ctx.state = m->states[m->chain_base[c] + k];
  ctx.pool = m->pool;
  pt_err_clear(&m->err);
  st = m->kernels[in->a](&ctx, m->argv[m->chain_base[c] + k], in->nargs);
  if (st != PTERA_OK) {
    /* Kernel messages start with the op name. */
    if (!m->err.msg[0]) pt_fail(&m->err, st, "%s failed", m->op_names[in->a]);
    m->err.status = st;
    pt_err_prefix(&m->err, "method '%s' instruction %u", m->plan->name.ptr, k);
  }
  return st;
}

/* A fused group: the tensors it reads must have memory, as for a kernel
 * (its last argument is the group's output). */
static ptera_status run_fused(ptera_method *m, const pr_fused *g, uint32_t k) {
  for (uint32_t j = 0; j + 1 < g->nargs; j++) {
    const ptera_value *v = g->args[j];
    if (v->tag == PTERA_TAG_TENSOR && !v->u.tensor->data && v->u.tensor->numel)
      return pt_fail(&m->err, PTERA_INVALID_STATE,
                     "method '%s' instruction %u (%s): an argument is a tensor with no memory",
                     m->plan->name.ptr, k, g->name);
  }
  const ptera_value *out = g->args[g->nargs - 1];
  if (out->tag == PTERA_TAG_TENSOR && !out->u.tensor->data && out->u.tensor->numel)
    return pt_fail(&m->err, PTERA_INVALID_STATE,
                   "method '%s' instruction %u (%s): the output has no memory (an unplanned "
                   "output needs ptera_method_set_output_buffer)",
                   m->plan->name.ptr, k, g->name);
  ptera_kernel_ctx ctx;
  pr_kernel_ctx_init(&ctx, g->name, &m->err, m->temp, m->temp_size);
  ctx.state = g->state;
  ctx.pool = m->pool;
  pt_err_clear(&m->err);
  ptera_status st = g->run(&ctx, g->args, g->nargs);
  if (st != PTERA_OK) {
    if (!m->err.msg[0]) pt_fail(&m->err, st, "%s failed", g->name);
    m->err.status = st;
    pt_err_prefix(&m->err, "method '%s' instruction %u", m->plan->name.ptr, k);
  }
  return st;
}

static ptera_status run_delegate(ptera_method *m, const pf_instr *in, uint32_t c, uint32_t k) {
  pr_delegate *d = &m->delegates[in->a];
  if (!d->initialized)
    return pt_fail(&m->err, PTERA_INTERNAL, "method '%s' instruction %u: delegate %d not initialised",
                   m->plan->name.ptr, k, in->a);
  /* The backend writes its message straight into the method's (no stack
   * copy); the runtime then prefixes where it happened. */
  pt_err_clear(&m->err);
  ptera_backend_exec_ctx ctx = {m->plan->name.ptr, m->err.msg, sizeof m->err.msg, m->temp,
                                m->temp_size, m->pool};
  ptera_value **argv = in->nargs ? m->argv[m->chain_base[c] + k] : NULL;
  ptera_status st = d->backend->execute(&ctx, d->handle, argv, in->nargs);
  if (st != PTERA_OK) {
    if (!m->err.msg[0]) pt_fail(&m->err, st, "%s", ptera_status_name(st));
    m->err.status = st;
    pt_err_prefix(&m->err, "method '%s' instruction %u (delegate %s)", m->plan->name.ptr, k,
                  d->backend->name);
  }
  return st;
}

/* JumpFalse: jump when the condition is false (any false element of a Bool tensor). */
static ptera_status jump_condition(ptera_method *m, const pf_instr *in, uint32_t k, bool *jump) {
  const ptera_value *v = &m->values[in->a];
  if (v->tag == PTERA_TAG_BOOL) {
    *jump = !v->u.b;
    return PTERA_OK;
  }
  if (v->tag == PTERA_TAG_TENSOR && v->u.tensor->dtype == PTERA_DTYPE_BOOL) {
    const ptera_tensor *t = v->u.tensor;
    if (!t->data && t->numel)
      return pt_fail(&m->err, PTERA_INVALID_STATE, "method '%s' instruction %u: condition has no data",
                     m->plan->name.ptr, k);
    *jump = false;
    for (size_t i = 0; i < t->numel; i++)
      if (!((const uint8_t *)t->data)[i]) *jump = true;
    return PTERA_OK;
  }
  return pt_fail(&m->err, PTERA_INVALID_PROGRAM,
                 "method '%s' instruction %u: jump condition is a %s, not a Bool or Bool tensor",
                 m->plan->name.ptr, k, ptera_tag_name(v->tag));
}

static ptera_status run_instruction(ptera_method *m, const pf_instr *in, uint32_t c, uint32_t k,
                                    uint32_t *next) {
  *next = k + 1;
  switch (in->type) {
    case PF_INSTR_KERNEL: return run_kernel(m, in, c, k);
    case PF_INSTR_DELEGATE: return run_delegate(m, in, c, k);
    case PF_INSTR_MOVE: m->values[in->b] = m->values[in->a]; return PTERA_OK;
    case PF_INSTR_JUMP_FALSE: {
      bool jump = false;
      ptera_status st = jump_condition(m, in, k, &jump);
      if (st == PTERA_OK && jump) *next = (uint32_t)in->b;
      return st;
    }
    case PF_INSTR_FREE: {
      ptera_value *v = &m->values[in->a];
      if (v->tag != PTERA_TAG_TENSOR)
        return pt_fail(&m->err, PTERA_INVALID_TYPE, "method '%s' instruction %u frees a %s",
                       m->plan->name.ptr, k, ptera_tag_name(v->tag));
      v->u.tensor->data = NULL;
      return PTERA_OK;
    }
    default:
      return pt_fail(&m->err, PTERA_INVALID_PROGRAM, "method '%s' instruction %u has unknown type %u",
                     m->plan->name.ptr, k, in->type);
  }
}

ptera_status ptera_method_execute(ptera_method *m) {
  if (!m) return PTERA_INVALID_ARGUMENT;
  if (!m->initialized) return pt_fail(&m->err, PTERA_INVALID_STATE, "the method did not load");
  for (uint32_t i = 0; i < m->plan->ninputs; i++)
    if (!m->input_set[i])
      return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "input %u of method '%s' is not set", i,
                     m->plan->name.ptr);
  uint32_t executed = 0;
  for (uint32_t c = 0; c < m->plan->nchains; c++) {
    const pf_chain *chain = &m->plan->chains[c];
    uint32_t pc = 0;
    while (pc < chain->ninstrs) {
      if (++executed > PTERA_MAX_EXECUTED_INSTRUCTIONS)
        return pt_fail(&m->err, PTERA_INVALID_PROGRAM,
                       "method '%s' ran more than %u instructions (an endless loop?)",
                       m->plan->name.ptr, PTERA_MAX_EXECUTED_INSTRUCTIONS);
      uint32_t next;
      const pr_fused *g = pr_method_fused_at(m, c, pc);
      if (g) {
        if (m->hook) pr_method_hook_fused(m, c, pc, g->name, 0);
        ptera_status st = run_fused(m, g, pc);
        if (m->hook) pr_method_hook_fused(m, c, pc, g->name, 1);
        if (st != PTERA_OK) return st;
        pc += g->span;
        continue;
      }
      const pf_instr *in = &chain->instrs[pc];
      if (m->hook) pr_method_hook(m, c, pc, in, 0);
      ptera_status st = run_instruction(m, in, c, pc, &next);
      if (m->hook) pr_method_hook(m, c, pc, in, 1);
      if (st != PTERA_OK) return st;
      pc = next;
    }
  }
  pt_err_clear(&m->err);
  return PTERA_OK;
}

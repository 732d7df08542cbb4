/* Profiling hook and memory report of a method (method.h). */
#include "runtime/runtime.h"

void ptera_method_set_instr_hook(ptera_method *m, ptera_instr_hook hook, void *user) {
  if (!m) return;
  m->hook = hook;
  m->hook_user = user;
}

void pr_method_hook(ptera_method *m, uint32_t c, uint32_t k, const pf_instr *in, int end) {
  ptera_instr_event ev = {c, k, PTERA_INSTR_OTHER, "", end};
  switch (in->type) {
    case PF_INSTR_KERNEL:
      ev.kind = PTERA_INSTR_KERNEL;
      ev.name = m->op_names[in->a];
      break;
    case PF_INSTR_DELEGATE:
      ev.kind = PTERA_INSTR_DELEGATE;
      ev.name = m->plan->delegates[in->a].id.ptr;
      break;
    case PF_INSTR_MOVE: ev.name = "move"; break;
    case PF_INSTR_JUMP_FALSE: ev.name = "jump_false"; break;
    case PF_INSTR_FREE: ev.name = "free"; break;
    default: ev.name = "unknown"; break;
  }
  m->hook(m->hook_user, &ev);
}

void pr_method_hook_fused(ptera_method *m, uint32_t c, uint32_t k, const char *name, int end) {
  ptera_instr_event ev = {c, k, PTERA_INSTR_KERNEL, name, end};
  m->hook(m->hook_user, &ev);
}

ptera_status ptera_method_get_memory(const ptera_method *m, ptera_method_memory *out) {
  if (!m || !out) return PTERA_INVALID_ARGUMENT;
  memset(out, 0, sizeof *out);
  if (!m->initialized) return PTERA_INVALID_STATE;
  out->arena_bytes = m->arena.total;
  for (uint32_t j = 1; j < m->nbuffers; j++) out->planned_bytes += (size_t)m->buffer_sizes[j];
  out->temp_bytes = m->temp_size;
  out->packed_bytes = m->packed_bytes + m->delegate_bytes;
  return PTERA_OK;
}

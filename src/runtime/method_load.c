/* Method load, steps 2 and 3: initialise delegates, resolve operators and
 * check every instruction (EXECUTION.md §1.2). */
#include <stdio.h>

#include "runtime/runtime.h"

static void list_backends(char *buf, size_t cap) {
  size_t n = ptera_backend_count();
  if (n == 0) {
    pt_snprintf(buf, cap, "none");
    return;
  }
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && used < cap; i++) {
    int w = pt_snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", ptera_backend_at(i)->name);
    if (w < 0) break;
    used += (size_t)w;
  }
}

ptera_status pr_method_load_delegates(ptera_method *m) {
  const pf_plan *plan = m->plan;
  m->delegates = pt_arena_array(&m->arena, plan->ndelegates ? plan->ndelegates : 1,
                                sizeof *m->delegates, 8);
  if (!m->delegates) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  pr_method_init_delegate_allocator(m);
  for (uint32_t i = 0; i < plan->ndelegates; i++) {
    const pf_delegate *d = &plan->delegates[i];
    const ptera_backend *b = ptera_backend_find(d->id.ptr, d->id.len);
    if (!b || (b->is_available && !b->is_available())) {
      char names[256];
      list_backends(names, sizeof names);
      return pt_fail(&m->err, PTERA_NOT_FOUND,
                     "method '%s' delegates to backend '%s', which is %s in this build "
                     "(registered backends: %s)",
                     plan->name.ptr, d->id.ptr, b ? "not available" : "not registered", names);
    }
    pf_bytes blob;
    pt_err e;
    ptera_status st = pf_pte_delegate_blob(&m->program->pte, d, &blob, &e);
    if (st != PTERA_OK)
      return pt_fail(&m->err, st, "method '%s' delegate %u (%s): %s", plan->name.ptr, i,
                     d->id.ptr, e.msg);
    ptera_compile_spec *specs =
        pt_arena_array(&m->arena, d->nspecs ? d->nspecs : 1, sizeof *specs, 8);
    if (!specs) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
    for (uint32_t k = 0; k < d->nspecs; k++) {
      specs[k].key = d->specs[k].key.ptr;
      specs[k].value = d->specs[k].value.ptr;
      specs[k].size = (size_t)d->specs[k].value.len;
    }
    char msg[PT_ERRMSG_SIZE] = "";
    ptera_backend_init_ctx ctx = {plan->name.ptr, &m->delegate_allocator, &m->program->named_data,
                                  msg, sizeof msg, m->pool, 0, m->program->options.max_planned_bytes,
                                  NULL, 0};
    st = b->init(&ctx, blob.ptr, (size_t)blob.len, specs, d->nspecs, &m->delegates[i].handle);
    if (st != PTERA_OK)
      return pt_fail(&m->err, st, "method '%s' delegate %u: backend '%s' could not initialise: %s",
                     plan->name.ptr, i, b->name, msg[0] ? msg : ptera_status_name(st));
    m->delegates[i].backend = b;
    m->delegates[i].initialized = true;
    /* the temp arena is sized after every delegate and prepare step declared */
    if (b->abi_version >= 2 && ctx.temp_bytes > m->delegate_temp) m->delegate_temp = ctx.temp_bytes;
    if (b->abi_version >= 3 && ctx.written_args) {
      m->delegates[i].written = ctx.written_args;
      m->delegates[i].nwritten = ctx.num_written_args;
    }
  }
  return PTERA_OK;
}

static ptera_status resolve_operators(ptera_method *m) {
  const pf_plan *plan = m->plan;
  size_t n = plan->nops ? plan->nops : 1;
  m->kernels = pt_arena_array(&m->arena, n, sizeof *m->kernels, 8);
  m->op_names = pt_arena_array(&m->arena, n, sizeof *m->op_names, 8);
  m->prepares = pt_arena_array(&m->arena, n, sizeof *m->prepares, 8);
  m->writes_first = pt_arena_array(&m->arena, n, sizeof *m->writes_first, 1);
  if (!m->kernels || !m->prepares || !m->op_names || !m->writes_first)
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  for (uint32_t i = 0; i < plan->nops; i++) {
    const pf_operator *op = &plan->ops[i];
    size_t len = (size_t)op->name.len + (op->overload.len ? 1 + (size_t)op->overload.len : 0);
    char *name = pt_arena_alloc(&m->arena, len + 1, 1);
    if (!name) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
    memcpy(name, op->name.ptr, op->name.len);
    if (op->overload.len) {
      name[op->name.len] = '.';
      memcpy(name + op->name.len + 1, op->overload.ptr, op->overload.len);
    }
    m->op_names[i] = name;
    ptera_kernel_def def;
    if (pr_find_kernel_def(name, len, &def)) {
      m->kernels[i] = def.run;
      m->prepares[i] = def.prepare;
    }
    m->writes_first[i] = strcmp(name, "executorch_prim::et_copy_index.tensor") == 0;
  }
  return PTERA_OK;
}

/* The argument pointers of every KERNEL and DELEGATE instruction. */
static ptera_status build_argv(ptera_method *m) {
  const pf_plan *plan = m->plan;
  size_t nchains = plan->nchains ? plan->nchains : 1, total = 0;
  m->chain_base = pt_arena_array(&m->arena, nchains, sizeof *m->chain_base, 8);
  if (!m->chain_base) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  for (uint32_t c = 0; c < plan->nchains; c++) {
    m->chain_base[c] = total;
    total += plan->chains[c].ninstrs;
  }
  m->argv = pt_arena_array(&m->arena, total ? total : 1, sizeof *m->argv, 8);
  if (!m->argv) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  for (uint32_t c = 0; c < plan->nchains; c++)
    for (uint32_t k = 0; k < plan->chains[c].ninstrs; k++) {
      const pf_instr *in = &plan->chains[c].instrs[k];
      if ((in->type != PF_INSTR_KERNEL && in->type != PF_INSTR_DELEGATE) || in->nargs == 0) continue;
      ptera_value **argv = pt_arena_array(&m->arena, in->nargs, sizeof *argv, 8);
      if (!argv) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
      for (uint32_t j = 0; j < in->nargs; j++) argv[j] = &m->values[in->args[j]];
      m->argv[m->chain_base[c] + k] = argv;
    }
  return PTERA_OK;
}

ptera_status pr_method_load_instructions(ptera_method *m) {
  const pf_plan *plan = m->plan;
  ptera_status st = resolve_operators(m);
  if (st == PTERA_OK) st = build_argv(m);
  if (st != PTERA_OK) return st;
  char missing[PT_ERRMSG_SIZE];
  size_t used = 0;
  unsigned nmissing = 0;
  missing[0] = '\0';
  for (uint32_t c = 0; c < plan->nchains; c++) {
    for (uint32_t k = 0; k < plan->chains[c].ninstrs; k++) {
      const pf_instr *in = &plan->chains[c].instrs[k];
      if (in->type != PF_INSTR_KERNEL) continue;
      if (!m->kernels[in->a]) {
        if (nmissing++ < 8 && used < sizeof missing) {
          int w = pt_snprintf(missing + used, sizeof missing - used, "%s%s (instruction %u)",
                           used ? ", " : "", m->op_names[in->a], k);
          if (w > 0) used += (size_t)w;
        }
        continue;
      }
      if (in->nargs == 0)
        return pt_fail(&m->err, PTERA_INVALID_PROGRAM,
                       "method '%s' instruction %u (%s) has no arguments", plan->name.ptr, k,
                       m->op_names[in->a]);
      st = pr_check_writable(m, in, k);
      if (st != PTERA_OK) return st;
    }
  }
  if (nmissing)
    return pt_fail(&m->err, PTERA_OPERATOR_MISSING,
                   "method '%s': %u operator call%s with no registered kernel: %s%s", plan->name.ptr,
                   nmissing, nmissing > 1 ? "s" : "", missing, nmissing > 8 ? ", ..." : "");
  return PTERA_OK;
}

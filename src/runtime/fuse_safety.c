/* Whether a fused group may leave its intermediate values unwritten
 * (fuse.h). Works on the plan's value indices: a value counts as read where
 * it, or a list holding it, is an argument. */
#include "runtime/fuse.h"

static bool list_holds(const pf_plan *p, int32_t list, int32_t v) {
  const pf_value *l = &p->values[list];
  if (l->type != PF_VAL_TENSOR_LIST && l->type != PF_VAL_OPT_TENSOR_LIST) return false;
  for (uint32_t i = 0; i < l->u.idx.len; i++)
    if (l->u.idx.items[i] == v) return true;
  return false;
}

bool pr_fuse_refers(const pf_plan *p, int32_t arg, int32_t v) {
  return arg == v || list_holds(p, arg, v);
}

static bool in_group(uint32_t c, uint32_t k, uint32_t gc, uint32_t gk, uint32_t span) {
  return c == gc && k >= gk && k < gk + span;
}

/* v is a method input or output, or sits in a list that is one. */
bool pr_fuse_is_io(const pf_plan *p, int32_t v) {
  for (uint32_t i = 0; i < p->ninputs; i++)
    if (pr_fuse_refers(p, p->inputs[i], v)) return true;
  for (uint32_t i = 0; i < p->noutputs; i++)
    if (pr_fuse_refers(p, p->outputs[i], v)) return true;
  return false;
}

/* Any instruction outside the group names v (KERNEL/DELEGATE args, FREE). */
static bool used_outside(const pf_plan *p, int32_t v, uint32_t gc, uint32_t gk, uint32_t span) {
  for (uint32_t c = 0; c < p->nchains; c++)
    for (uint32_t k = 0; k < p->chains[c].ninstrs; k++) {
      if (in_group(c, k, gc, gk, span)) continue;
      const pf_instr *in = &p->chains[c].instrs[k];
      if (in->type == PF_INSTR_FREE && in->a == v) return true;
      if (in->type != PF_INSTR_KERNEL && in->type != PF_INSTR_DELEGATE) continue;
      for (uint32_t j = 0; j < in->nargs; j++)
        if (pr_fuse_refers(p, in->args[j], v)) return true;
    }
  return false;
}

const pf_tensor *pr_fuse_planned(const pf_plan *p, int32_t v) {
  const pf_value *pv = &p->values[v];
  if (pv->type != PF_VAL_TENSOR || !pv->u.tensor->has_allocation || !pv->u.tensor->nbytes)
    return NULL;
  return pv->u.tensor;
}

bool pr_fuse_overlap(const pf_tensor *a, const pf_tensor *b) {
  return a->memory_id == b->memory_id && a->memory_offset < b->memory_offset + b->nbytes &&
         b->memory_offset < a->memory_offset + a->nbytes;
}

/* After the group (the rest of its chain, then later chains), x is read
 * before an instruction writes it, or it is a method output that nothing
 * writes again. Delegates count as readers. */
bool pr_fuse_read_after(const ptera_method *m, int32_t x, uint32_t gc, uint32_t gk, uint32_t span) {
  const pf_plan *p = m->plan;
  for (uint32_t c = gc; c < p->nchains; c++)
    for (uint32_t k = c == gc ? gk + span : 0; k < p->chains[c].ninstrs; k++) {
      const pf_instr *in = &p->chains[c].instrs[k];
      if (in->type == PF_INSTR_DELEGATE) {
        for (uint32_t j = 0; j < in->nargs; j++)
          if (pr_fuse_refers(p, in->args[j], x)) return true;
        continue;
      }
      if (in->type != PF_INSTR_KERNEL || in->nargs == 0) continue;
      /* The return slot names what the call writes (its out arguments
       * too, which come before it): written first, whatever else it reads. */
      if (pr_fuse_refers(p, in->args[m->writes_first[in->a] ? 0 : in->nargs - 1], x)) return false;
      for (uint32_t j = 0; j < in->nargs; j++)
        if (pr_fuse_refers(p, in->args[j], x)) return true;
    }
  for (uint32_t i = 0; i < p->noutputs; i++)
    if (pr_fuse_refers(p, p->outputs[i], x)) return true;
  return false;
}

bool pr_fuse_group_private(const ptera_method *m, uint32_t c, uint32_t k, const pr_fuse_match *mt) {
  const pf_plan *p = m->plan;
  for (uint32_t i = 0; i < mt->ntemps; i++) {
    int32_t t = mt->temps[i];
    if (t == mt->out || pr_fuse_is_io(p, t) || used_outside(p, t, c, k, mt->span)) return false;
    const pf_tensor *tt = pr_fuse_planned(p, t);
    if (!tt) continue;
    /* A value sharing t's memory that is live across the group would see
     * what the unfused program wrote into t (an alias): keep it. */
    for (uint32_t x = 0; x < p->nvalues; x++) {
      if ((int32_t)x == mt->out || pr_fuse_is_temp(mt, (int32_t)x)) continue;
      const pf_tensor *xt = pr_fuse_planned(p, (int32_t)x);
      if (xt && pr_fuse_overlap(tt, xt) && pr_fuse_read_after(m, (int32_t)x, c, k, mt->span)) return false;
    }
  }
  return true;
}

/* Helpers the fusion matchers share (fuse.h). */
#include <math.h>
#include <string.h>

#include "runtime/fuse.h"

const pf_instr *pr_fuse_call(const ptera_method *m, const pf_chain *chain, uint32_t k,
                             const char *op, uint32_t nargs) {
  if (k >= chain->ninstrs) return NULL;
  const pf_instr *in = &chain->instrs[k];
  if (in->type != PF_INSTR_KERNEL || in->nargs != nargs) return NULL;
  return strcmp(m->op_names[in->a], op) == 0 ? in : NULL;
}

static ptera_value *new_value(ptera_method *m, ptera_tag tag) {
  ptera_value *v = pt_arena_alloc(&m->arena, sizeof *v, 8);
  if (v) v->tag = tag;
  return v;
}

ptera_value *pr_fuse_double(ptera_method *m, double d) {
  ptera_value *v = new_value(m, PTERA_TAG_DOUBLE);
  if (v) v->u.d = d;
  return v;
}

ptera_value *pr_fuse_int(ptera_method *m, int64_t i) {
  ptera_value *v = new_value(m, PTERA_TAG_INT);
  if (v) v->u.i = i;
  return v;
}

ptera_value *pr_fuse_bool(ptera_method *m, bool b) {
  ptera_value *v = new_value(m, PTERA_TAG_BOOL);
  if (v) v->u.b = b;
  return v;
}

ptera_value *pr_fuse_none(ptera_method *m) { return new_value(m, PTERA_TAG_NONE); }

const pf_tensor *pr_fuse_tensor(const ptera_method *m, int32_t v) {
  return m->plan->values[v].type == PF_VAL_TENSOR ? m->plan->values[v].u.tensor : NULL;
}

bool pr_fuse_is_temp(const pr_fuse_match *mt, int32_t v) {
  for (uint32_t i = 0; i < mt->ntemps; i++)
    if (mt->temps[i] == v) return true;
  return false;
}

bool pr_fuse_temp(pr_fuse_match *mt, int32_t v) {
  if (pr_fuse_is_temp(mt, v)) return true;
  if (mt->ntemps == PR_FUSE_MAX_TEMPS) return false;
  mt->temps[mt->ntemps++] = v;
  return true;
}

void pr_fuse_untemp(pr_fuse_match *mt, int32_t v) {
  for (uint32_t i = 0; i < mt->ntemps;)
    if (mt->temps[i] == v) mt->temps[i] = mt->temps[--mt->ntemps];
    else i++;
}

bool pr_fuse_scalar(const ptera_value *v, double *out) {
  switch (v->tag) {
    case PTERA_TAG_INT: *out = (double)v->u.i; return true;
    case PTERA_TAG_DOUBLE: *out = v->u.d; return true;
    case PTERA_TAG_BOOL: *out = v->u.b ? 1.0 : 0.0; return true;
    default: return false;
  }
}

/* relu.out(self, *, out) / hardtanh.out(self, min_val, max_val, *, out) /
 * clamp.out(self, min?, max?, *, out), each with its return slot last. */
bool pr_fuse_activation(ptera_method *m, const pf_chain *chain, uint32_t k, int32_t in,
                        pr_fuse_match *mt, double *min, double *max, int32_t *out,
                        const char **name) {
  const pf_instr *a = pr_fuse_call(m, chain, k, "aten::relu.out", 3);
  const ptera_value *lo = NULL, *hi = NULL;
  if (a) {
    *name = "relu";
    *min = 0.0;
    *max = INFINITY;
  } else if ((a = pr_fuse_call(m, chain, k, "aten::hardtanh.out", 5)) != NULL) {
    *name = "hardtanh";
  } else if ((a = pr_fuse_call(m, chain, k, "aten::clamp.out", 5)) != NULL) {
    *name = "clamp";
  } else {
    return false;
  }
  if (a->args[0] != in) return false;
  if (a->nargs == 5) {
    lo = &m->values[a->args[1]];
    hi = &m->values[a->args[2]];
    *min = -INFINITY;
    *max = INFINITY;
    if (lo->tag != PTERA_TAG_NONE && !pr_fuse_scalar(lo, min)) return false;
    if (hi->tag != PTERA_TAG_NONE && !pr_fuse_scalar(hi, max)) return false;
    if (isnan(*min) || isnan(*max) || *min > *max) return false;
  }
  int32_t o = a->args[a->nargs - 2], ret = a->args[a->nargs - 1];
  if (o == in || (ret != o && !pr_fuse_temp(mt, ret))) return false;
  *out = o;
  return true;
}

/* Aliasing groups and what the aliasing passes share (fuse.h): which value
 * shows which bytes, which instructions write them. */
#include <string.h>

#include "runtime/fuse.h"
#include "runtime/kernel_ctx.h"

static const char ET_VIEW[] = "executorch_prim::et_view.default";

ptera_status pr_alias_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  const pr_alias_state *s = ctx->state;
  if (s->dst) s->dst->u.tensor->data = s->src->u.tensor->data;
  if (!s->fn) return PTERA_OK;
  ctx->state = NULL; /* the kernels aliasing groups call have no prepare step */
  return s->fn(ctx, args, nargs);
}

ptera_status pr_alias_install(ptera_method *m, uint32_t c, uint32_t k, const char *name,
                              ptera_value **args, uint32_t nargs, ptera_kernel_fn fn, int32_t dst,
                              int32_t src) {
  pr_fused *g = pt_arena_alloc(&m->arena, sizeof *g, 8);
  pr_alias_state *s = pt_arena_alloc(&m->arena, sizeof *s, 8);
  ptera_value **a = pt_arena_array(&m->arena, nargs, sizeof *a, 8);
  if (!g || !s || !a) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  memcpy(a, args, nargs * sizeof *a);
  s->fn = fn;
  s->dst = dst >= 0 ? &m->values[dst] : NULL;
  s->src = src >= 0 ? &m->values[src] : NULL;
  g->name = name;
  g->run = pr_alias_run;
  g->args = a;
  g->nargs = nargs;
  g->span = 1;
  g->state = s;
  return pr_fuse_install(m, c, k, g);
}

ptera_status pr_alias_map_init(ptera_method *m, pr_alias_map *am) {
  const pf_plan *p = m->plan;
  size_t n = 0;
  for (uint32_t c = 0; c < p->nchains; c++) n += p->chains[c].ninstrs;
  am->ninstrs = n;
  am->src = pt_alloc(m->allocator, (p->nvalues ? p->nvalues : 1) * sizeof *am->src, 8);
  am->covered = pt_calloc(m->allocator, n ? n : 1, 1, 1);
  if (!am->src || !am->covered) {
    pr_alias_map_free(m, am);
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  }
  for (uint32_t v = 0; v < p->nvalues; v++) am->src[v] = -1;
  for (uint32_t c = 0; c < p->nchains; c++)
    for (uint32_t k = 0; k < p->chains[c].ninstrs; k++) {
      const pf_instr *in = &p->chains[c].instrs[k];
      const pr_fused *g = pr_method_fused_at(m, c, k);
      for (uint32_t j = 0; g && j < g->span; j++) am->covered[m->chain_base[c] + k + j] = 1;
      if (in->type == PF_INSTR_KERNEL && in->nargs == 3 && strcmp(m->op_names[in->a], ET_VIEW) == 0 &&
          in->args[2] != in->args[0])
        am->src[in->args[2]] = in->args[0];
    }
  return PTERA_OK;
}

void pr_alias_map_free(ptera_method *m, pr_alias_map *am) {
  pt_free(m->allocator, am->src);
  pt_free(m->allocator, am->covered);
  am->src = NULL;
  am->covered = NULL;
}

int32_t pr_alias_root(const ptera_method *m, const pr_alias_map *am, int32_t v) {
  /* Bounded: a program may make views into a cycle. */
  for (uint32_t i = 0; i < m->plan->nvalues && am->src[v] >= 0; i++) v = am->src[v];
  return v;
}

bool pr_alias_from(const ptera_method *m, const pr_alias_map *am, int32_t x, int32_t v) {
  for (uint32_t i = 0; i <= m->plan->nvalues; i++) {
    if (x == v) return true;
    if (am->src[x] < 0) return false;
    x = am->src[x];
  }
  return false;
}

/* Whether plan argument arg names a value showing v's bytes through views
 * of v. */
static bool names_arg(const ptera_method *m, const pr_alias_map *am, int32_t arg, int32_t v) {
  const pf_value *a = &m->plan->values[arg];
  if (a->type == PF_VAL_TENSOR_LIST || a->type == PF_VAL_OPT_TENSOR_LIST) {
    for (uint32_t i = 0; i < a->u.idx.len; i++)
      if (a->u.idx.items[i] >= 0 && pr_alias_from(m, am, a->u.idx.items[i], v)) return true;
    return false;
  }
  return pr_alias_from(m, am, arg, v);
}

bool pr_alias_writes(const ptera_method *m, const pr_alias_map *am, const pf_instr *in, int32_t v) {
  if (in->type == PF_INSTR_DELEGATE) { /* its outputs where the backend said which, else any arg */
    const pr_delegate *d = &m->delegates[in->a];
    if (!d->written) return pr_alias_names(m, am, in, v);
    for (size_t i = 0; i < d->nwritten; i++)
      if (d->written[i] < in->nargs && names_arg(m, am, in->args[d->written[i]], v)) return true;
    return false;
  }
  if (in->type != PF_INSTR_KERNEL || in->nargs == 0) return false;
  if (strcmp(m->op_names[in->a], ET_VIEW) == 0) return false;
  return names_arg(m, am, in->args[m->writes_first[in->a] ? 0 : in->nargs - 1], v);
}

bool pr_alias_names(const ptera_method *m, const pr_alias_map *am, const pf_instr *in, int32_t v) {
  if (in->type == PF_INSTR_FREE) return pr_alias_from(m, am, in->a, v);
  if (in->type != PF_INSTR_KERNEL && in->type != PF_INSTR_DELEGATE) return false;
  for (uint32_t j = 0; j < in->nargs; j++)
    if (names_arg(m, am, in->args[j], v)) return true;
  return false;
}

bool pr_alias_straight(const ptera_method *m) {
  const pf_plan *p = m->plan;
  for (uint32_t c = 0; c < p->nchains; c++)
    for (uint32_t k = 0; k < p->chains[c].ninstrs; k++)
      if (p->chains[c].instrs[k].type == PF_INSTR_JUMP_FALSE ||
          p->chains[c].instrs[k].type == PF_INSTR_MOVE)
        return false;
  return true;
}

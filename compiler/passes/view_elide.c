/* View elision (passes.h): a copy that only reshapes contiguous data
 *
 *      out = aten::view_copy(self, size)       (also squeeze_copy, unsqueeze_copy,
 *                                               alias_copy, and expand_copy where
 *                                               out has self's numel: no dim
 *                                               broadcast, at most size-1 dims added)
 *   becomes
 *      out = executorch_prim::et_view(self, [out's sizes])
 *
 * which points out at self's bytes instead of copying them (ExecuTorch's own
 * exporter makes the same rewrite; et_view is one of its prim ops, so the
 * program still runs there). out and self become one alias class, which the
 * memory plan keeps alive as one buffer, and out itself is left unplanned.
 *
 * Only when sharing cannot be observed: self and out have the same dtype,
 * static shapes, numel and the default dim order; nothing writes either's
 * alias class after it is produced (no in-place update of the base or the
 * view), neither holds mutable state (a BUFFER) and out is not a method
 * output (an output owns its memory). */
#include "mutation.h"
#include "passes.h"

static const char ET_VIEW[] = "executorch_prim::et_view.default";

static bool is_view_copy(const char *op) {
  static const char *const ops[] = {"aten::view_copy.out", "aten::squeeze_copy.dims_out",
                                    "aten::squeeze_copy.dim_out", "aten::squeeze_copy.out",
                                    "aten::unsqueeze_copy.out", "aten::alias_copy.out",
                                    "aten::expand_copy.out"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(op, ops[i]) == 0) return true;
  return false;
}

static bool default_order(const pc_gtensor *t) {
  for (uint32_t d = 0; d < t->dim; d++)
    if (t->dim_order[d] != d) return false;
  return true;
}

static uint64_t numel(const pc_gtensor *t) {
  uint64_t n = 1;
  for (uint32_t d = 0; d < t->dim; d++) n *= (uint64_t)t->sizes[d];
  return n;
}

/* Whether node k may become an et_view of its first argument; class_* are
 * by alias root: holds a BUFFER, has a member written after production. */
static bool elidable(const pc_graph *g, const pc_mutation *m, const uint8_t *class_buffer,
                     const uint8_t *class_mutated, uint32_t k) {
  const pc_gnode *n = &g->nodes[k];
  if (n->removed || n->kind != PC_N_CALL || !is_view_copy(n->op) || n->nargs < 2) return false;
  int32_t self = n->args[0], out = n->args[n->nargs - 1];
  if (!n->writes[n->nargs - 1] || self == out) return false;
  for (uint32_t i = 0; i + 1 < n->nargs; i++)
    if (n->writes[i]) return false;
  const pc_gvalue *s = &g->values[self], *o = &g->values[out];
  if (s->kind != PC_G_TENSOR || o->kind != PC_G_TENSOR) return false;
  const pc_gtensor *st = &s->u.t, *ot = &o->u.t;
  if (st->dtype != ot->dtype || st->dynamism || ot->dynamism || !default_order(st) ||
      !default_order(ot) || numel(st) != numel(ot))
    return false;
  int32_t rs = pc_graph_alias_root(g, self), ro = pc_graph_alias_root(g, out);
  if (m->mutated[self] || m->mutated[out] || m->producer[out] != (int32_t)k || m->is_output[out])
    return false;
  /* A write anywhere in either class after production (an in-place call on
   * another member) would show through the shared bytes. */
  return !class_buffer[rs] && !class_buffer[ro] && !class_mutated[rs] && !class_mutated[ro];
}

ptera_status pc_elide_views(pc_graph *g, pc_pass_stats *stats) {
  pc_mutation m;
  ptera_status st = pc_mutation_analyze(g, &m);
  if (st != PTERA_OK) return st;
  uint32_t nv = g->nvalues ? g->nvalues : 1, nn = g->nnodes ? g->nnodes : 1;
  uint8_t *class_buffer = pt_calloc(g->allocator, nv, 1, 0);
  uint8_t *class_mutated = pt_calloc(g->allocator, nv, 1, 0);
  uint8_t *pick = pt_calloc(g->allocator, nn, 1, 0);
  if (!class_buffer || !class_mutated || !pick) {
    st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory eliding views in '%s'",
                 g->name);
    goto done;
  }
  for (uint32_t v = 0; v < g->nvalues; v++) {
    int32_t r = pc_graph_alias_root(g, (int32_t)v);
    if (g->values[v].kind == PC_G_TENSOR && g->values[v].u.t.store == PC_T_BUFFER) class_buffer[r] = 1;
    if (m.mutated[v]) class_mutated[r] = 1;
  }
  /* Decide on the analysis as it is, then rewrite (new values may move
   * g->values). */
  uint32_t count = 0;
  for (uint32_t k = 0; k < g->nnodes; k++) {
    if (elidable(g, &m, class_buffer, class_mutated, k)) pick[k] = 1, count++;
  }
  for (uint32_t k = 0; k < g->nnodes && st == PTERA_OK; k++) {
    if (!pick[k]) continue;
    int32_t self = g->nodes[k].args[0], out = g->nodes[k].args[g->nodes[k].nargs - 1];
    int64_t sizes[PTERA_MAX_DIM];
    const pc_gtensor *ot = &g->values[out].u.t;
    for (uint32_t d = 0; d < ot->dim; d++) sizes[d] = ot->sizes[d];
    int32_t size = pc_graph_ints(g, sizes, ot->dim);
    int32_t *args = pt_arena_array(&g->arena, 3, sizeof *args, 4);
    uint8_t *writes = pt_arena_array(&g->arena, 3, 1, 1);
    if (size < 0 || !args || !writes) {
      st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory eliding views in '%s'",
                   g->name);
      break;
    }
    args[0] = self, args[1] = size, args[2] = out;
    writes[2] = 1;
    pc_gnode *n = &g->nodes[k];
    n->op = ET_VIEW;
    n->args = args;
    n->writes = writes;
    n->nargs = 3;
    st = pc_graph_alias(g, out, self);
  }
  if (st == PTERA_OK && stats) stats->elided_views += count;
done:
  pt_free(g->allocator, class_buffer);
  pt_free(g->allocator, class_mutated);
  pt_free(g->allocator, pick);
  pc_mutation_free(g, &m);
  return st;
}

/* Dead-code elimination (passes.h). Walking the nodes backwards, a call is
 * live when it writes
 *  - a value whose alias class a method output or a later live call reads
 *    (tensor-list items count, and so does every member of the class), or
 *  - mutable state: an alias class holding a method input, a BUFFER or a
 *    CONST (such a write is a side effect), or
 *  - nothing at all (a call without results is kept: it may be a check).
 * A live call needs every argument it touches, written ones included (an
 * in-place call reads what it overwrites). Region markers are then removed in
 * begin/end pairs that enclose no live call; unbalanced markers are left
 * alone. */
#include "mutation.h"
#include "passes.h"

typedef struct live_walk {
  const pc_graph *g;
  const pc_mutation *m;
  uint8_t *needed; /* by alias root */
  bool live;
  bool writes_any;
} live_walk;

static void probe(void *ctx, int32_t v, bool written) {
  live_walk *w = ctx;
  if (!written) return;
  w->writes_any = true;
  int32_t r = pc_graph_alias_root(w->g, v);
  if (w->needed[r] || w->m->state_root[r]) w->live = true;
}

static void need(void *ctx, int32_t v, bool written) {
  live_walk *w = ctx;
  (void)written;
  w->needed[pc_graph_alias_root(w->g, v)] = 1;
}

ptera_status pc_dce(pc_graph *g, pc_pass_stats *stats) {
  pc_mutation m;
  ptera_status st = pc_mutation_analyze(g, &m);
  if (st != PTERA_OK) return st;
  uint32_t nv = g->nvalues ? g->nvalues : 1;
  uint8_t *needed = pt_calloc(g->allocator, nv, 1, 0);
  int32_t *stack = pt_alloc(g->allocator, (size_t)(g->nnodes ? g->nnodes : 1) * sizeof *stack, 0);
  uint8_t *has_live = pt_calloc(g->allocator, g->nnodes ? g->nnodes : 1, 1, 0);
  if (!needed || !stack || !has_live) {
    st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                 "out of memory eliminating dead code in '%s'", g->name);
    goto done;
  }
  live_walk w = {g, &m, needed, false, false};
  for (uint32_t i = 0; i < g->noutputs; i++) {
    int32_t o = g->outputs[i];
    need(&w, o, false);
    const pc_gvalue *x = &g->values[o];
    if (x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS)
      for (uint32_t k = 0; k < x->u.tensors.len; k++)
        if (x->u.tensors.ids[k] >= 0) need(&w, x->u.tensors.ids[k], false);
  }

  uint32_t removed = 0;
  for (uint32_t k = g->nnodes; k-- > 0;) {
    pc_gnode *n = &g->nodes[k];
    if (n->removed || n->kind != PC_N_CALL) continue;
    w.live = false;
    w.writes_any = false;
    pc_graph_visit_args(g, n, probe, &w);
    if (w.live || !w.writes_any) {
      pc_graph_visit_args(g, n, need, &w);
    } else {
      n->removed = true;
      removed++;
    }
  }

  /* Regions: a begin/end pair goes when nothing live lies between them. */
  uint32_t depth = 0;
  for (uint32_t k = 0; k < g->nnodes; k++) {
    pc_gnode *n = &g->nodes[k];
    if (n->removed) continue;
    if (n->kind == PC_N_CALL) {
      if (depth) has_live[stack[depth - 1]] = 1;
    } else if (n->kind == PC_N_REGION_BEGIN) {
      stack[depth++] = (int32_t)k;
      has_live[k] = 0;
    } else if (depth) { /* REGION_END */
      int32_t b = stack[--depth];
      if (!has_live[b]) {
        g->nodes[b].removed = true;
        n->removed = true;
      } else if (depth) {
        has_live[stack[depth - 1]] = 1;
      }
    }
  }
  if (stats) stats->removed_nodes += removed;
done:
  pt_free(g->allocator, needed);
  pt_free(g->allocator, stack);
  pt_free(g->allocator, has_live);
  pc_mutation_free(g, &m);
  return st;
}

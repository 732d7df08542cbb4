/* Producer / mutation / state analysis shared by the graph passes. */
#include "mutation.h"

void pc_mutation_free(pc_graph *g, pc_mutation *m) {
  pt_free(g->allocator, m->producer);
  pt_free(g->allocator, m->mutated);
  pt_free(g->allocator, m->written);
  pt_free(g->allocator, m->is_input);
  pt_free(g->allocator, m->is_output);
  pt_free(g->allocator, m->state_root);
  pt_free(g->allocator, m->class_size);
  memset(m, 0, sizeof *m);
}

typedef struct write_walk {
  const pc_graph *g;
  pc_mutation *m;
  int32_t node;
} write_walk;

static bool is_state_store(const pc_graph *g, int32_t v) {
  const pc_gvalue *x = &g->values[v];
  return x->kind == PC_G_TENSOR && (x->u.t.store == PC_T_CONST || x->u.t.store == PC_T_BUFFER);
}

static void note_write(void *ctx, int32_t v, bool written) {
  write_walk *w = ctx;
  if (!written) return;
  pc_mutation *m = w->m;
  m->written[v] = 1;
  if (m->producer[v] < 0) m->producer[v] = w->node;
  else if (m->producer[v] != w->node) m->mutated[v] = 1;
  if (m->is_input[v] || is_state_store(w->g, v)) m->mutated[v] = 1;
}

/* Flags each listed value and the items of listed tensor lists. */
static void mark_io(const pc_graph *g, uint8_t *flags, const int32_t *ids, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    const pc_gvalue *x = &g->values[ids[i]];
    flags[ids[i]] = 1;
    if (x->kind != PC_G_TENSORS && x->kind != PC_G_OPT_TENSORS) continue;
    for (uint32_t k = 0; k < x->u.tensors.len; k++)
      if (x->u.tensors.ids[k] >= 0) flags[x->u.tensors.ids[k]] = 1;
  }
}

ptera_status pc_mutation_analyze(pc_graph *g, pc_mutation *m) {
  memset(m, 0, sizeof *m);
  uint32_t n = g->nvalues ? g->nvalues : 1;
  m->producer = pt_alloc(g->allocator, (size_t)n * sizeof *m->producer, 0);
  m->mutated = pt_calloc(g->allocator, n, 1, 0);
  m->written = pt_calloc(g->allocator, n, 1, 0);
  m->is_input = pt_calloc(g->allocator, n, 1, 0);
  m->is_output = pt_calloc(g->allocator, n, 1, 0);
  m->state_root = pt_calloc(g->allocator, n, 1, 0);
  m->class_size = pt_calloc(g->allocator, n, sizeof *m->class_size, 0);
  uint8_t *root_mut = pt_calloc(g->allocator, n, 1, 0);
  if (!m->producer || !m->mutated || !m->written || !m->is_input || !m->is_output ||
      !m->state_root || !m->class_size || !root_mut) {
    pt_free(g->allocator, root_mut);
    pc_mutation_free(g, m);
    return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                   "out of memory analysing graph '%s' (%u values)", g->name,
                   (unsigned)g->nvalues);
  }
  for (uint32_t v = 0; v < g->nvalues; v++) m->producer[v] = -1;
  mark_io(g, m->is_input, g->inputs, g->ninputs);
  mark_io(g, m->is_output, g->outputs, g->noutputs);
  for (uint32_t v = 0; v < g->nvalues; v++) {
    int32_t r = pc_graph_alias_root(g, (int32_t)v);
    m->class_size[r]++;
    if (m->is_input[v] || is_state_store(g, (int32_t)v)) m->state_root[r] = 1;
  }

  write_walk w = {g, m, 0};
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *node = &g->nodes[k];
    if (node->removed || node->kind != PC_N_CALL) continue;
    w.node = (int32_t)k;
    pc_graph_visit_args(g, node, note_write, &w);
  }

  /* Spread over alias classes and tensor lists until nothing changes. */
  bool changed = true;
  while (changed) {
    changed = false;
    memset(root_mut, 0, n);
    for (uint32_t v = 0; v < g->nvalues; v++)
      if (m->mutated[v]) root_mut[pc_graph_alias_root(g, (int32_t)v)] = 1;
    for (uint32_t v = 0; v < g->nvalues; v++) {
      if (!m->mutated[v] && root_mut[pc_graph_alias_root(g, (int32_t)v)]) {
        m->mutated[v] = 1;
        changed = true;
      }
    }
    for (uint32_t v = 0; v < g->nvalues; v++) {
      const pc_gvalue *x = &g->values[v];
      if (x->kind != PC_G_TENSORS && x->kind != PC_G_OPT_TENSORS) continue;
      for (uint32_t i = 0; i < x->u.tensors.len; i++) {
        int32_t t = x->u.tensors.ids[i];
        if (t < 0) continue;
        if (m->mutated[v] && !m->mutated[t]) {
          m->mutated[t] = 1;
          changed = true;
        }
        if (m->mutated[t] && !m->mutated[v]) {
          m->mutated[v] = 1;
          changed = true;
        }
      }
    }
  }
  pt_free(g->allocator, root_mut);
  return PTERA_OK;
}

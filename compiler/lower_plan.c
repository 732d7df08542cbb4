/* Lowering, part 1: reachability, lifetimes, alias classes and the memory
 * plan of one method (see lower.h for the rules). */
#include <string.h>

#include <string.h>

#include "lower_impl.h"

static const char ET_VIEW[] = "executorch_prim::et_view.default";

static bool valid(const pc_graph *g, int32_t v) { return v >= 0 && (uint32_t)v < g->nvalues; }

static void mark(lw_method *m, int32_t v) {
  const pc_gvalue *x = &m->g->values[v];
  m->reach[v] = 1;
  if (x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS)
    for (uint32_t k = 0; k < x->u.tensors.len; k++)
      if (x->u.tensors.ids[k] >= 0) m->reach[x->u.tensors.ids[k]] = 1;
}

/* Every id a node, list, input, output or alias link names must exist; a
 * list of tensors must name tensors. */
static ptera_status check_ids(const lw_method *m) {
  const pc_graph *g = m->g;
  for (uint32_t v = 0; v < g->nvalues; v++) {
    const pc_gvalue *x = &g->values[v];
    if (!valid(g, x->alias_parent))
      return pt_fail(m->e, PTERA_INVALID_ARGUMENT, "value %u: bad alias link", v);
    if (x->kind != PC_G_TENSORS && x->kind != PC_G_OPT_TENSORS) continue;
    for (uint32_t k = 0; k < x->u.tensors.len; k++) {
      int32_t t = x->u.tensors.ids[k];
      bool none_ok = x->kind == PC_G_OPT_TENSORS && t == -1;
      if (!none_ok && (!valid(g, t) || g->values[t].kind != PC_G_TENSOR))
        return pt_fail(m->e, PTERA_INVALID_ARGUMENT, "value %u: item %u is not a tensor", v, k);
    }
  }
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pc_gnode *n = &g->nodes[i];
    if (n->kind != PC_N_CALL) continue;
    if (!n->op || (n->nargs && (!n->args || !n->writes)))
      return pt_fail(m->e, PTERA_INVALID_ARGUMENT, "node %u: malformed call", i);
    for (uint32_t a = 0; a < n->nargs; a++)
      if (!valid(g, n->args[a]))
        return pt_fail(m->e, PTERA_INVALID_ARGUMENT, "node %u (%s): argument %u: bad value id %ld",
                       i, n->op, a, (long)n->args[a]);
  }
  for (uint32_t i = 0; i < g->ninputs; i++)
    if (!valid(g, g->inputs[i]))
      return pt_fail(m->e, PTERA_INVALID_ARGUMENT, "input %u: bad value id", i);
  for (uint32_t i = 0; i < g->noutputs; i++)
    if (!valid(g, g->outputs[i]))
      return pt_fail(m->e, PTERA_INVALID_ARGUMENT, "output %u: bad value id", i);
  return PTERA_OK;
}

ptera_status lw_analyze(lw_method *m) {
  const pc_graph *g = m->g;
  ptera_status st = check_ids(m);
  if (st != PTERA_OK) return st;
  m->ninstrs = 0;
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pc_gnode *n = &g->nodes[i];
    if (n->kind != PC_N_CALL || n->removed) continue;
    if (m->ninstrs == INT32_MAX)
      return pt_fail(m->e, PTERA_NOT_SUPPORTED, "too many instructions");
    m->ninstrs++;
    for (uint32_t a = 0; a < n->nargs; a++) {
      mark(m, n->args[a]);
      if (!n->writes[a]) continue;
      const pc_gvalue *x = &g->values[n->args[a]];
      m->written[n->args[a]] = 1;
      if (x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS)
        for (uint32_t k = 0; k < x->u.tensors.len; k++)
          if (x->u.tensors.ids[k] >= 0) m->written[x->u.tensors.ids[k]] = 1;
    }
    if (strcmp(n->op, ET_VIEW) == 0 && n->nargs == 3 && n->writes[2] &&
        g->values[n->args[2]].kind == PC_G_TENSOR)
      m->is_view[n->args[2]] = 1;
  }
  for (uint32_t i = 0; i < g->ninputs; i++) {
    mark(m, g->inputs[i]);
    m->is_view[g->inputs[i]] = 0; /* an input gets its data from the caller */
  }
  for (uint32_t i = 0; i < g->noutputs; i++) mark(m, g->outputs[i]);
  return PTERA_OK;
}

/* Per alias class (indexed by root id), while planning. */
typedef struct lw_class {
  uint32_t first, last;
  uint64_t size;
  bool planned, pinned, used;
  uint32_t ninitial; /* members with an initial value */
  int32_t buf;       /* membuf index, or -1 */
} lw_class;

typedef struct lw_life {
  uint32_t *first, *last; /* per value; first == UINT32_MAX: never used */
  uint32_t k;             /* current instruction */
} lw_life;

static void touch(void *ctx, int32_t v, bool written) {
  lw_life *l = ctx;
  (void)written;
  if (l->k < l->first[v]) l->first[v] = l->k;
  if (l->k > l->last[v]) l->last[v] = l->k;
}

/* The role a tensor would have on its own (before its class is known). */
static lw_role own_role(const lw_method *m, int32_t v) {
  const pc_gtensor *t = &m->g->values[v].u.t;
  if (m->is_view[v]) return LW_UNPLANNED;
  if (t->store == PC_T_CONST && !m->written[v]) return LW_CONSTANT;
  return LW_PLANNED;
}

static bool has_initial(const pc_gtensor *t) { return t->store != PC_T_ACTIVATION; }

static void extend(void *ctx, int32_t v, bool written) {
  lw_life *l = ctx;
  if (!written && l->last[v] < l->k) l->last[v] = l->k;
}

static bool op_in(const pc_gnode *n, const char *const *ops, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (strcmp(n->op, ops[i]) == 0) return true;
  return false;
}

/* Whether n's first argument is a tensor p writes. */
static bool reads_output(const pc_gnode *n, const pc_gnode *p) {
  if (!n->nargs || n->writes[0]) return false;
  for (uint32_t a = 0; a < p->nargs; a++)
    if (p->writes[a] && p->args[a] == n->args[0]) return true;
  return false;
}

/* The runtime fuses a convolution or linear call with the batch norm, view
 * and activation calls after it (src/runtime/fuse_conv.c, fuse_linear.c)
 * and writes the last one's output while the first one's inputs are still
 * being read. So the inputs of every call of such a chain (a head, then
 * links each reading the call before) live until the chain's last call and
 * never share its output's bytes; otherwise the fused kernel computes into
 * a staging buffer and copies the result back. */
static void extend_chains(const lw_method *m, lw_life *l) {
  static const char *const heads[] = {"aten::convolution.out", "aten::linear.out"};
  static const char *const links[] = {"aten::_native_batch_norm_legit_no_training.out", "aten::view_copy.out",
                                      "aten::relu.out", "aten::hardtanh.out", "aten::clamp.out"};
  const pc_graph *g = m->g;
  uint32_t start = UINT32_MAX, k = 0; /* start: node index of the chain's head, or none */
  const pc_gnode *prev = NULL;
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pc_gnode *n = &g->nodes[i];
    if (n->kind != PC_N_CALL || n->removed) continue;
    if (start != UINT32_MAX && !n->delegate && op_in(n, links, 5) && reads_output(n, prev)) {
      l->k = k;
      for (uint32_t j = start; j < i; j++)
        if (g->nodes[j].kind == PC_N_CALL && !g->nodes[j].removed) pc_graph_visit_args(g, &g->nodes[j], extend, l);
    } else {
      start = !n->delegate && op_in(n, heads, 2) ? i : UINT32_MAX;
    }
    prev = n;
    k++;
  }
}

static ptera_status compute_lifetimes(lw_method *m, lw_life *l) {
  const pc_graph *g = m->g;
  l->first = pt_arena_array(&m->scratch, g->nvalues, sizeof *l->first, 4);
  l->last = pt_arena_array(&m->scratch, g->nvalues, sizeof *l->last, 4);
  if (!l->first || !l->last) return pt_fail(m->e, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  for (uint32_t v = 0; v < g->nvalues; v++) l->first[v] = UINT32_MAX;
  l->k = 0;
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pc_gnode *n = &g->nodes[i];
    if (n->kind != PC_N_CALL || n->removed) continue;
    pc_graph_visit_args(g, n, touch, l);
    l->k++;
  }
  extend_chains(m, l);
  return PTERA_OK;
}

ptera_status lw_plan(lw_method *m, const ptera_allocator *allocator) {
  const pc_graph *g = m->g;
  uint32_t end = m->ninstrs ? m->ninstrs - 1 : 0;
  lw_life l;
  ptera_status st = compute_lifetimes(m, &l);
  if (st != PTERA_OK) return st;
  lw_class *cls = pt_arena_array(&m->scratch, g->nvalues, sizeof *cls, 8);
  uint8_t *pin = pt_arena_array(&m->scratch, g->nvalues, 1, 1);
  if (!cls || !pin) return pt_fail(m->e, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  for (uint32_t i = 0; i < g->ninputs; i++) {
    pin[g->inputs[i]] = 1;
    l.first[g->inputs[i]] = 0;
  }
  for (uint32_t i = 0; i < g->noutputs; i++) {
    pin[g->outputs[i]] = 1;
    l.last[g->outputs[i]] = end;
  }
  /* A class is planned when a member is. */
  for (uint32_t v = 0; v < g->nvalues; v++) {
    cls[v].buf = -1;
    cls[v].first = UINT32_MAX;
    if (!m->reach[v] || g->values[v].kind != PC_G_TENSOR) continue;
    if (own_role(m, (int32_t)v) == LW_PLANNED) cls[pc_graph_alias_root(g, (int32_t)v)].planned = true;
  }
  /* Roles, and each planned class's extent, lifetime and pins. */
  for (uint32_t v = 0; v < g->nvalues; v++) {
    m->buf[v] = -1;
    if (!m->reach[v] || g->values[v].kind != PC_G_TENSOR) continue;
    const pc_gtensor *t = &g->values[v].u.t;
    lw_class *c = &cls[pc_graph_alias_root(g, (int32_t)v)];
    lw_role r = own_role(m, (int32_t)v);
    if (r == LW_CONSTANT && c->planned) r = LW_PLANNED;
    m->role[v] = (uint8_t)r;
    if (!c->planned) continue;
    c->used = true;
    uint32_t first = l.first[v], last = l.last[v];
    if (first == UINT32_MAX) first = 0; /* an output nothing writes */
    if (last < first) last = first;
    if (first < c->first) c->first = first;
    if (last > c->last) c->last = last;
    if (pin[v]) c->pinned = true;
    if (r != LW_PLANNED) continue;
    size_t nb = pc_gtensor_nbytes(t);
    if (nb > c->size) c->size = nb;
    if (has_initial(t)) {
      if (++c->ninitial > 1)
        return pt_fail(m->e, PTERA_NOT_SUPPORTED,
                       "value %u: two tensors with initial values share storage", v);
    }
  }
  /* State with an initial value lives for the whole method, alone. */
  uint32_t nbufs = 0;
  for (uint32_t v = 0; v < g->nvalues; v++) {
    lw_class *c = &cls[v];
    if (!c->used) continue;
    if (c->ninitial) {
      c->first = 0;
      c->last = end;
      c->pinned = true;
    }
    c->buf = (int32_t)nbufs++;
  }
  pt_membuf *bufs = pt_arena_array(&m->scratch, nbufs ? nbufs : 1, sizeof *bufs, 8);
  if (!bufs) return pt_fail(m->e, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  for (uint32_t v = 0; v < g->nvalues; v++) {
    const lw_class *c = &cls[v];
    if (c->buf < 0) continue;
    if (c->size > SIZE_MAX) return pt_fail(m->e, PTERA_NOT_SUPPORTED, "tensor too large");
    bufs[c->buf] = (pt_membuf){(size_t)c->size, c->first, c->last, -1, c->pinned};
  }
  for (uint32_t v = 0; v < g->nvalues; v++)
    if (m->reach[v] && g->values[v].kind == PC_G_TENSOR && m->role[v] == LW_PLANNED)
      m->buf[v] = cls[pc_graph_alias_root(g, (int32_t)v)].buf;
  return pt_memplan_compute(bufs, nbufs, m->alignment, allocator, &m->plan, m->e);
}

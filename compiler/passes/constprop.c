/* Constant propagation (passes.h): evaluates, with the runtime's own kernels
 * (eval.h), every call that reads only unmutated constants and literals and
 * writes only fresh, unaliased intermediates, and turns what it wrote into
 * constants. Each folded output takes the shape the kernel left it with and
 * becomes static. A kernel that fails leaves the node as it was. */
#include "eval.h"
#include "mutation.h"
#include "passes.h"
#include "ptera/kernel.h"

/* Operators never folded: random or uninitialised results, and the prim
 * helpers that alias or accumulate into their output. */
static bool nondeterministic(const char *op) {
  const char *name = strstr(op, "::");
  name = name ? name + 2 : op;
  static const char *const prefixes[] = {
      "rand", "empty", "_empty", "bernoulli", "normal", "uniform", "multinomial",
      "exponential", "poisson", "cauchy", "geometric", "log_normal", "et_view",
      "et_copy_index"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return true;
  const char *dot = strchr(name, '.');
  size_t len = dot ? (size_t)(dot - name) : strlen(name);
  for (size_t i = 0; i + 7 <= len; i++)
    if (memcmp(name + i, "dropout", 7) == 0) return true;
  return false;
}

typedef struct fold_ctx {
  pc_graph *g;
  const pc_mutation *m;
  int32_t node;
  bool ok;
  uint32_t nwritten; /* written tensors seen */
  uint64_t in_bytes, out_bytes; /* constant tensors read, tensors written */
} fold_ctx;

/* A fold may write at most this many bytes more than the constants it
 * reads: the declared shapes of a .ptg are not bounded by its size, and a
 * fold (full, expand_copy, repeat) allocates its outputs for real. */
#define PC_FOLD_MAX_GROWTH ((uint64_t)64 << 20)

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static void count_bytes(fold_ctx *c, int32_t v, bool written) {
  size_t nb = pc_gtensor_nbytes(&c->g->values[v].u.t);
  uint64_t n = nb == SIZE_MAX ? UINT64_MAX : (uint64_t)nb;
  if (written) c->out_bytes = sat_add(c->out_bytes, n);
  else c->in_bytes = sat_add(c->in_bytes, n);
}

static bool plain_tensor_read(const pc_graph *g, const pc_mutation *m, int32_t v) {
  const pc_gvalue *x = &g->values[v];
  return x->kind == PC_G_TENSOR && x->u.t.store == PC_T_CONST && !m->mutated[v] &&
         !m->is_input[v] && !(g->named_consts_replaceable && x->u.t.fqn);
}

/* A written tensor the fold may turn into a constant. */
static bool fresh_output(const fold_ctx *c, int32_t v) {
  const pc_graph *g = c->g;
  const pc_mutation *m = c->m;
  const pc_gvalue *x = &g->values[v];
  if (x->kind != PC_G_TENSOR || x->u.t.store != PC_T_ACTIVATION) return false;
  if (m->producer[v] != c->node || m->mutated[v] || m->is_input[v] || m->is_output[v])
    return false;
  return m->class_size[pc_graph_alias_root(g, v)] == 1;
}

static void check_arg(fold_ctx *c, int32_t a, bool written) {
  const pc_graph *g = c->g;
  const pc_mutation *m = c->m;
  const pc_gvalue *x = &g->values[a];
  if (written) {
    if (x->kind == PC_G_TENSOR) {
      if (!fresh_output(c, a)) c->ok = false;
      else count_bytes(c, a, true);
      c->nwritten++;
      return;
    }
    if (x->kind != PC_G_TENSORS || m->producer[a] != c->node || m->mutated[a] ||
        m->is_input[a] || m->is_output[a]) {
      c->ok = false;
      return;
    }
    for (uint32_t i = 0; i < x->u.tensors.len; i++) {
      if (!fresh_output(c, x->u.tensors.ids[i])) c->ok = false;
      else count_bytes(c, x->u.tensors.ids[i], true);
      c->nwritten++;
    }
    return;
  }
  /* Tensors: an unmutated CONST (a fold earlier in this pass wrote it, which
   * does not count: that call is gone). Literals: nothing may write them. */
  switch (x->kind) {
    case PC_G_TENSOR:
      if (!plain_tensor_read(g, m, a)) c->ok = false;
      else count_bytes(c, a, false);
      break;
    case PC_G_TENSORS:
    case PC_G_OPT_TENSORS:
      if (m->mutated[a] || m->is_input[a]) c->ok = false;
      for (uint32_t i = 0; i < x->u.tensors.len; i++) {
        int32_t t = x->u.tensors.ids[i];
        if (t >= 0 && !plain_tensor_read(g, m, t)) c->ok = false;
        else if (t >= 0) count_bytes(c, t, false);
      }
      break;
    default:
      if (m->written[a] || m->is_input[a]) c->ok = false;
      break;
  }
}

static bool foldable(pc_graph *g, const pc_mutation *m, int32_t k) {
  const pc_gnode *n = &g->nodes[k];
  if (n->removed || n->kind != PC_N_CALL || nondeterministic(n->op)) return false;
  fold_ctx c = {g, m, k, true, 0, 0, 0};
  for (uint32_t i = 0; i < n->nargs && c.ok; i++) check_arg(&c, n->args[i], n->writes[i] != 0);
  if (!c.ok || c.nwritten == 0) return false;
  if (c.out_bytes > sat_add(c.in_bytes, PC_FOLD_MAX_GROWTH)) return false;
  /* A tensor written twice by the call (two out arguments naming it) would
   * have two results; leave such calls alone. */
  for (uint32_t i = 0; i < n->nargs; i++)
    for (uint32_t j = i + 1; j < n->nargs; j++)
      if (n->writes[i] && n->writes[j] && n->args[i] == n->args[j]) return false;
  return ptera_kernel_find(n->op, strlen(n->op)) != NULL;
}

/* Runs node k. Returns OK (folded is set when the kernel succeeded and the
 * outputs became constants) or an out-of-memory status. */
static ptera_status evaluate(pc_graph *g, int32_t k, ptera_value **vmap, bool *folded) {
  pc_gnode *n = &g->nodes[k];
  *folded = false;
  pc_eval e;
  ptera_status st = pc_eval_call(g, k, vmap, NULL, &e);
  if (st != PTERA_OK || !e.ran) goto done; /* out of memory, or not foldable */

  /* Copy every result into the graph before changing any value. */
  const uint8_t **data = pt_arena_array(&e.scratch, e.nouts, sizeof *data, _Alignof(uint8_t *));
  if (!data) {
    st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                 "out of memory keeping the result of '%s' (node %d)", n->op, (int)k);
    goto done;
  }
  for (uint32_t i = 0; i < e.nouts; i++) {
    const ptera_tensor *t = e.outs[i];
    const pc_gtensor *gt = &g->values[e.out_ids[i]].u.t;
    if (t->dim != gt->dim || ptera_tensor_nbytes(t) > t->capacity) goto done; /* kernel misbehaved */
    data[i] = pc_graph_copy_data(g, t->data, ptera_tensor_nbytes(t));
    if (!data[i]) {
      st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                   "out of memory keeping the %zu-byte result of '%s' (node %d)",
                   ptera_tensor_nbytes(t), n->op, (int)k);
      goto done;
    }
  }
  for (uint32_t i = 0; i < e.nouts; i++) {
    const ptera_tensor *t = e.outs[i];
    pc_gtensor *gt = &g->values[e.out_ids[i]].u.t;
    for (uint32_t d = 0; d < t->dim; d++) gt->sizes[d] = t->sizes[d];
    gt->store = PC_T_CONST;
    gt->dynamism = PTERA_SHAPE_STATIC;
    gt->data = data[i];
    gt->nbytes = ptera_tensor_nbytes(t);
    gt->fqn = NULL;
  }
  n->removed = true;
  *folded = true;
done:
  pc_eval_release(&e);
  return st;
}

/* ---- duplication guard ---- */

/* readers[v]: live calls reading tensor v (each call counted once); seen[v]
 * holds the stamp of the last visit that counted it. Every visit takes a new
 * stamp, so a node visited again counts again. At most three visits a node
 * and fewer than INT32_MAX / 2 nodes: the stamp does not wrap. */
typedef struct reader_ctx {
  uint32_t *readers;
  uint32_t *seen;
  uint32_t stamp;
  int delta;
  uint64_t out_bytes;
  bool shared; /* reads a tensor some other live call also reads */
  const pc_graph *g;
} reader_ctx;

static void count_reader(void *ctx, int32_t v, bool written) {
  reader_ctx *r = ctx;
  if (r->g->values[v].kind != PC_G_TENSOR) return;
  if (written) {
    r->out_bytes += pc_gtensor_nbytes(&r->g->values[v].u.t);
    return;
  }
  if (r->seen[v] == r->stamp) return;
  r->seen[v] = r->stamp;
  if (r->delta > 0) r->readers[v]++;
  else if (r->delta < 0 && r->readers[v] > 0) r->readers[v]--;
  else if (r->readers[v] > 1) r->shared = true;
}

static void visit_node(pc_graph *g, reader_ctx *r, int32_t k, int delta) {
  r->stamp++;
  r->delta = delta;
  r->out_bytes = 0;
  r->shared = false;
  pc_graph_visit_args(g, &g->nodes[k], count_reader, r);
}

/* A fold that makes more than this many bytes of new constants is skipped
 * when a constant it reads stays in use by another call: the program would
 * carry the source and the result (a transposed copy of a tied embedding
 * would add 37 MB to a Llama-style model). */
#define PC_FOLD_DUP_LIMIT (64u * 1024u)

static bool duplicates_constant(pc_graph *g, reader_ctx *r, int32_t k) {
  visit_node(g, r, k, 0);
  return r->out_bytes > PC_FOLD_DUP_LIMIT && r->shared;
}

ptera_status pc_constprop(pc_graph *g, pc_pass_stats *stats) {
  pc_mutation m;
  ptera_status st = pc_mutation_analyze(g, &m);
  if (st != PTERA_OK) return st;
  size_t nv = g->nvalues ? g->nvalues : 1;
  ptera_value **vmap = pt_calloc(g->allocator, nv, sizeof *vmap, 0);
  uint32_t *readers = pt_calloc(g->allocator, nv, sizeof *readers, 0);
  uint32_t *seen = pt_calloc(g->allocator, nv, sizeof *seen, 0);
  if (!vmap || !readers || !seen) {
    pt_free(g->allocator, vmap);
    pt_free(g->allocator, readers);
    pt_free(g->allocator, seen);
    pc_mutation_free(g, &m);
    return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                   "out of memory for constant propagation over '%s'", g->name);
  }
  reader_ctx rc = {readers, seen, 0, 0, 0, false, g};
  for (uint32_t k = 0; k < g->nnodes; k++)
    if (!g->nodes[k].removed && g->nodes[k].kind == PC_N_CALL) visit_node(g, &rc, (int32_t)k, 1);
  uint32_t folded = 0;
  for (uint32_t k = 0; k < g->nnodes && st == PTERA_OK; k++) {
    if (!foldable(g, &m, (int32_t)k) || duplicates_constant(g, &rc, (int32_t)k)) continue;
    bool done = false;
    st = evaluate(g, (int32_t)k, vmap, &done);
    if (!done) continue;
    folded++;
    visit_node(g, &rc, (int32_t)k, -1);
  }
  pt_free(g->allocator, vmap);
  pt_free(g->allocator, readers);
  pt_free(g->allocator, seen);
  pc_mutation_free(g, &m);
  if (stats) stats->folded_nodes += folded;
  return st;
}

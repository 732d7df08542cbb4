/* Constant propagation (passes.h): evaluates, with the runtime's own kernels,
 * every call that reads only unmutated constants and literals and writes only
 * fresh, unaliased intermediates, and turns what it wrote into constants.
 *
 * Arguments are handed to the kernel as the runtime would (EXECUTION.md
 * 7.1): the node's arguments in schema order, then the return slot (the one
 * written argument, or a tensor list of the written tensors when several).
 * Outputs get fresh buffers sized for their declared shape (the upper bound
 * for dynamic ones, which the kernel may shrink); each folded output takes
 * the shape the kernel left it with and becomes static. A kernel that fails
 * leaves the node as it was. */
#include "mutation.h"
#include "passes.h"
#include "ptera/kernel.h"
#include "runtime/kernel_ctx.h"

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

/* ---- evaluation ---- */

typedef struct eval_ctx {
  pc_graph *g;
  pt_arena *scratch;
  ptera_value **vmap;  /* value id -> built value, for this node */
  int32_t *touched;    /* ids set in vmap */
  uint32_t ntouched, touched_cap;
  ptera_tensor **outs; /* written tensors, parallel to out_ids */
  int32_t *out_ids;
  uint32_t nouts, outs_cap;
  size_t io_bytes;
} eval_ctx;

static ptera_value *new_pvalue(eval_ctx *e, uint8_t tag) {
  ptera_value *v = pt_arena_alloc(e->scratch, sizeof *v, _Alignof(ptera_value));
  if (v) v->tag = tag;
  return v;
}

static bool remember(eval_ctx *e, int32_t id, ptera_value *v) {
  if (e->ntouched == e->touched_cap) {
    uint32_t ncap = e->touched_cap ? e->touched_cap * 2 : 32;
    int32_t *n = pt_arena_array(e->scratch, ncap, sizeof *n, 4);
    if (!n) return false;
    if (e->touched) memcpy(n, e->touched, e->ntouched * sizeof *n);
    e->touched = n;
    e->touched_cap = ncap;
  }
  e->touched[e->ntouched++] = id;
  e->vmap[id] = v;
  return true;
}

static bool add_out(eval_ctx *e, int32_t id, ptera_tensor *t) {
  if (e->nouts == e->outs_cap) {
    uint32_t ncap = e->outs_cap ? e->outs_cap * 2 : 8;
    ptera_tensor **no = pt_arena_array(e->scratch, ncap, sizeof *no, _Alignof(ptera_tensor *));
    int32_t *ni = pt_arena_array(e->scratch, ncap, sizeof *ni, 4);
    if (!no || !ni) return false;
    if (e->outs) {
      memcpy(no, e->outs, e->nouts * sizeof *no);
      memcpy(ni, e->out_ids, e->nouts * sizeof *ni);
    }
    e->outs = no;
    e->out_ids = ni;
    e->outs_cap = ncap;
  }
  e->outs[e->nouts] = t;
  e->out_ids[e->nouts++] = id;
  return true;
}

static ptera_value *build_tensor(eval_ctx *e, int32_t id, bool written) {
  if (e->vmap[id]) return e->vmap[id];
  const pc_gtensor *gt = &e->g->values[id].u.t;
  ptera_tensor *t = pt_arena_alloc(e->scratch, sizeof *t, _Alignof(ptera_tensor));
  ptera_value *v = new_pvalue(e, PTERA_TAG_TENSOR);
  if (!t || !v) return NULL;
  size_t nbytes = pc_gtensor_nbytes(gt);
  if (nbytes == SIZE_MAX) return NULL;
  t->dim = gt->dim;
  t->dtype = gt->dtype;
  size_t numel = 1;
  for (uint32_t i = 0; i < gt->dim; i++) {
    t->sizes[i] = gt->sizes[i];
    t->dim_order[i] = gt->dim_order[i];
    numel *= (size_t)gt->sizes[i];
  }
  t->numel = numel;
  t->capacity = nbytes;
  if (written) {
    /* Fresh storage; a dynamic output may shrink within its declared bound. */
    t->data = pt_arena_alloc(e->scratch, nbytes ? nbytes : 1, 16);
    if (!t->data) return NULL;
    t->dynamism = gt->dynamism == PTERA_SHAPE_STATIC ? PTERA_SHAPE_STATIC
                                                     : PTERA_SHAPE_DYNAMIC_BOUND;
    if (!add_out(e, id, t)) return NULL;
  } else {
    t->data = (void *)(uintptr_t)gt->data;
    t->dynamism = PTERA_SHAPE_STATIC;
    t->flags = PTERA_TENSOR_CONST;
  }
  e->io_bytes += nbytes;
  ptera_tensor_update_strides(t);
  v->u.tensor = t;
  return remember(e, id, v) ? v : NULL;
}

static ptera_value *build_value(eval_ctx *e, int32_t id, bool written) {
  if (e->vmap[id]) return e->vmap[id];
  const pc_gvalue *x = &e->g->values[id];
  ptera_value *v;
  switch (x->kind) {
    case PC_G_TENSOR: return build_tensor(e, id, written);
    case PC_G_NONE: v = new_pvalue(e, PTERA_TAG_NONE); break;
    case PC_G_INT:
      if ((v = new_pvalue(e, PTERA_TAG_INT))) v->u.i = x->u.i;
      break;
    case PC_G_DOUBLE:
      if ((v = new_pvalue(e, PTERA_TAG_DOUBLE))) v->u.d = x->u.d;
      break;
    case PC_G_BOOL:
      if ((v = new_pvalue(e, PTERA_TAG_BOOL))) v->u.b = x->u.b;
      break;
    case PC_G_STRING:
      if ((v = new_pvalue(e, PTERA_TAG_STRING))) {
        v->u.str.ptr = x->u.str;
        v->u.str.len = strlen(x->u.str);
      }
      break;
    case PC_G_DOUBLES:
      if ((v = new_pvalue(e, PTERA_TAG_LIST_DOUBLE))) {
        v->u.doubles.items = x->u.doubles.items;
        v->u.doubles.len = x->u.doubles.len;
      }
      break;
    case PC_G_BOOLS: {
      uint8_t *b = pt_arena_alloc(e->scratch, x->u.bools.len ? x->u.bools.len : 1, 1);
      if (!b || !(v = new_pvalue(e, PTERA_TAG_LIST_BOOL))) return NULL;
      for (uint32_t i = 0; i < x->u.bools.len; i++) b[i] = x->u.bools.items[i] ? 1 : 0;
      v->u.bools.items = b;
      v->u.bools.len = x->u.bools.len;
      break;
    }
    case PC_G_INTS: {
      uint32_t len = x->u.ints.len;
      ptera_value **items = pt_arena_array(e->scratch, len ? len : 1, sizeof *items,
                                           _Alignof(ptera_value *));
      if (!items || !(v = new_pvalue(e, PTERA_TAG_LIST_INT))) return NULL;
      for (uint32_t i = 0; i < len; i++) {
        if (!(items[i] = new_pvalue(e, PTERA_TAG_INT))) return NULL;
        items[i]->u.i = x->u.ints.items[i];
      }
      v->u.list.items = items;
      v->u.list.len = len;
      break;
    }
    case PC_G_TENSORS:
    case PC_G_OPT_TENSORS: {
      uint32_t len = x->u.tensors.len;
      bool opt = x->kind == PC_G_OPT_TENSORS;
      ptera_value **items = pt_arena_array(e->scratch, len ? len : 1, sizeof *items,
                                           _Alignof(ptera_value *));
      if (!items ||
          !(v = new_pvalue(e, opt ? PTERA_TAG_LIST_OPTIONAL_TENSOR : PTERA_TAG_LIST_TENSOR)))
        return NULL;
      for (uint32_t i = 0; i < len; i++) {
        int32_t t = x->u.tensors.ids[i];
        if (t < 0) continue; /* None */
        if (!(items[i] = build_tensor(e, t, written))) return NULL;
      }
      v->u.list.items = items;
      v->u.list.len = len;
      break;
    }
    default: return NULL;
  }
  if (!v) return NULL;
  return remember(e, id, v) ? v : NULL;
}

/* The return slot: the one written argument, or a list of the written
 * tensors. */
static ptera_value *return_slot(eval_ctx *e, const pc_gnode *n, ptera_value **args) {
  uint32_t nw = 0, last = 0;
  for (uint32_t i = 0; i < n->nargs; i++)
    if (n->writes[i]) nw++, last = i;
  if (nw == 1) return args[last];
  ptera_value **items = pt_arena_array(e->scratch, e->nouts ? e->nouts : 1, sizeof *items,
                                       _Alignof(ptera_value *));
  ptera_value *v = new_pvalue(e, PTERA_TAG_LIST_TENSOR);
  if (!items || !v) return NULL;
  for (uint32_t i = 0; i < e->nouts; i++) items[i] = e->vmap[e->out_ids[i]];
  v->u.list.items = items;
  v->u.list.len = e->nouts;
  return v;
}

/* Runs node k. Returns OK (folded is set when the kernel succeeded and the
 * outputs became constants) or an out-of-memory status. */
static ptera_status evaluate(pc_graph *g, int32_t k, ptera_value **vmap, bool *folded) {
  pc_gnode *n = &g->nodes[k];
  *folded = false;
  pt_arena scratch;
  pt_arena_init(&scratch, g->allocator);
  eval_ctx e;
  memset(&e, 0, sizeof e);
  e.g = g;
  e.scratch = &scratch;
  e.vmap = vmap;
  ptera_status st = PTERA_OK;
  ptera_value **args = pt_arena_array(&scratch, (size_t)n->nargs + 1, sizeof *args,
                                      _Alignof(ptera_value *));
  bool built = args != NULL;
  for (uint32_t i = 0; built && i < n->nargs; i++)
    built = (args[i] = build_value(&e, n->args[i], n->writes[i] != 0)) != NULL;
  if (built) built = (args[n->nargs] = return_slot(&e, n, args)) != NULL;
  size_t temp_size = 0;
  void *temp = NULL;
  if (built) {
    /* Scratch for the kernel: generous, proportional to the data it sees. */
    temp_size = ((size_t)1 << 20) + 2 * e.io_bytes;
    temp = pt_arena_alloc(&scratch, temp_size, 16);
    built = temp != NULL;
  }
  if (!built) {
    st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                 "out of memory evaluating '%s' (node %d) at compile time", n->op, (int)k);
    goto done;
  }
  ptera_kernel_fn fn = ptera_kernel_find(n->op, strlen(n->op));
  pt_err kerr;
  pt_err_clear(&kerr);
  ptera_kernel_ctx kctx;
  pr_kernel_ctx_init(&kctx, n->op, &kerr, temp, temp_size);
  if (!fn || fn(&kctx, args, (size_t)n->nargs + 1) != PTERA_OK) goto done; /* not foldable */

  /* Copy every result into the graph before changing any value. */
  const uint8_t **data = pt_arena_array(&scratch, e.nouts, sizeof *data, _Alignof(uint8_t *));
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
  for (uint32_t i = 0; i < e.ntouched; i++) vmap[e.touched[i]] = NULL;
  pt_arena_release(&scratch);
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

/* Lowering, part 2: values, instructions, operators and external weights
 * into a pc_program (see lower.h). */
#include <string.h>

#include "lower_impl.h"
#include "sha256.h"

typedef struct lw_out {
  pc_lower_result *r;
  const pc_lower_options *o;
  uint32_t ptd_cap;
  pt_err *e;
} lw_out;

static ptera_status oom(pt_err *e) {
  return pt_fail(e, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
}

static char *copy_str(pt_arena *a, const char *s, size_t n) {
  char *d = pt_arena_alloc(a, n + 1, 1);
  if (d) memcpy(d, s, n);
  return d;
}

static bool same_layout(const pc_ptd_entry *p, const pc_gtensor *t) {
  if (p->scalar_type != t->dtype || p->dim != t->dim || p->nbytes != t->nbytes) return false;
  for (uint32_t i = 0; i < t->dim; i++)
    if (p->sizes[i] != t->sizes[i] || p->dim_order[i] != t->dim_order[i]) return false;
  return true;
}

/* Decides whether constant t goes to the .ptd; sets *key (NULL: stays in
 * the .pte) and records a new entry. */
static ptera_status external_key(lw_out *w, const pc_gtensor *t, const char **key) {
  pc_lower_result *r = w->r;
  char hex[65];
  const char *k = t->fqn;
  *key = NULL;
  if (w->o->weight_keys == PC_WEIGHT_KEYS_HASH) {
    pc_sha256_hex(t->data, t->nbytes, hex);
    k = hex;
  }
  if (!k || !*k) return PTERA_OK;
  for (uint32_t i = 0; i < r->nptd; i++) {
    pc_ptd_entry *p = &r->ptd[i];
    if (strcmp(p->key, k) != 0) continue;
    bool same = same_layout(p, t) && (t->nbytes == 0 || p->data == t->data ||
                                      memcmp(p->data, t->data, t->nbytes) == 0);
    if (same) *key = p->key;
    else if (w->o->weight_keys == PC_WEIGHT_KEYS_FQN)
      return pt_fail(w->e, PTERA_INVALID_ARGUMENT,
                     "two different constants are named '%s'; external weights need unique names", k);
    return PTERA_OK; /* hash keys: same bytes, other layout: keep it in the .pte */
  }
  if (r->nptd == w->ptd_cap) {
    uint32_t cap = w->ptd_cap ? w->ptd_cap * 2 : 16;
    pc_ptd_entry *n = pt_arena_array(&r->arena, cap, sizeof *n, 8);
    if (!n) return oom(w->e);
    if (r->nptd) memcpy(n, r->ptd, r->nptd * sizeof *n);
    r->ptd = n;
    w->ptd_cap = cap;
  }
  char *kc = copy_str(&r->arena, k, strlen(k));
  if (!kc) return oom(w->e);
  r->ptd[r->nptd++] = (pc_ptd_entry){kc, t->data, t->nbytes, t->dtype, t->dim, t->sizes, t->dim_order};
  *key = kc;
  return PTERA_OK;
}

static ptera_status lower_tensor(lw_out *w, const lw_method *m, int32_t v, pc_tensor *d) {
  const pc_gtensor *t = &m->g->values[v].u.t;
  d->scalar_type = t->dtype;
  d->dim = t->dim;
  memcpy(d->sizes, t->sizes, sizeof d->sizes);
  d->has_dim_order = true;
  memcpy(d->dim_order, t->dim_order, sizeof d->dim_order);
  d->dynamism = t->dynamism;
  if (t->store != PC_T_ACTIVATION) d->fqn = t->fqn;
  switch ((lw_role)m->role[v]) {
    case LW_UNPLANNED:
      d->storage = PC_STORAGE_NONE;
      return PTERA_OK;
    case LW_PLANNED: {
      const pt_memloc *loc = &m->plan.locs[m->buf[v]];
      d->storage = PC_STORAGE_PLANNED;
      d->memory_id = loc->memory_id;
      d->memory_offset = loc->offset;
      if (t->store != PC_T_ACTIVATION) {
        d->initial = t->data;
        d->initial_nbytes = t->nbytes;
      }
      return PTERA_OK;
    }
    case LW_CONSTANT:
      break;
  }
  d->storage = PC_STORAGE_CONST;
  d->data = t->data;
  d->nbytes = t->nbytes;
  if (!w->o->external_weights) return PTERA_OK;
  const char *key;
  ptera_status st = external_key(w, t, &key);
  if (st == PTERA_OK && key) {
    d->external = true;
    d->fqn = key;
  }
  return st;
}

/* Operators whose result is their return slot (no out argument): the
 * graph's last, written argument already is that slot. */
static bool functional_op(const char *op) {
  return strncmp(op, "executorch_prim::", 17) == 0 || strcmp(op, "aten::sym_size.int") == 0 ||
         strcmp(op, "aten::sym_numel") == 0 || strcmp(op, "aten::_local_scalar_dense") == 0;
}

static bool live_call(const pc_gnode *n) { return n->kind == PC_N_CALL && !n->removed; }

/* Counts program values and maps graph ids to program indices; then gives
 * each live call its return slot (m->ret): the one written argument, or a
 * new value after the graph's (a list of the written tensors, or None). */
static ptera_status map_values(lw_method *m, int32_t *index, uint32_t *count, pt_err *e) {
  const pc_graph *g = m->g;
  uint64_t n = 0;
  for (uint32_t v = 0; v < g->nvalues; v++) {
    index[v] = -1;
    if (!m->reach[v]) continue;
    const pc_gvalue *x = &g->values[v];
    if (x->kind == PC_G_INTS) n += x->u.ints.len;
    if (n >= INT32_MAX) return pt_fail(e, PTERA_NOT_SUPPORTED, "too many values");
    index[v] = (int32_t)n++;
  }
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pc_gnode *nd = &g->nodes[i];
    m->ret[i] = -1;
    if (!live_call(nd) || nd->delegate || functional_op(nd->op)) continue;
    uint32_t nw = 0, last = 0;
    for (uint32_t a = 0; a < nd->nargs; a++)
      if (nd->writes[a]) nw++, last = a;
    if (nw == 1) {
      m->ret[i] = index[nd->args[last]];
      continue;
    }
    if (n >= INT32_MAX) return pt_fail(e, PTERA_NOT_SUPPORTED, "too many values");
    m->ret[i] = (int32_t)n++;
  }
  *count = (uint32_t)n;
  return PTERA_OK;
}

/* Fills the return-slot values map_values created. */
static ptera_status lower_returns(lw_out *w, const lw_method *m, const int32_t *index,
                                  pc_value *vals) {
  const pc_graph *g = m->g;
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pc_gnode *nd = &g->nodes[i];
    if (m->ret[i] < 0 || !live_call(nd)) continue;
    uint32_t nw = 0, nt = 0;
    for (uint32_t a = 0; a < nd->nargs; a++) {
      if (!nd->writes[a]) continue;
      const pc_gvalue *x = &g->values[nd->args[a]];
      nw++;
      nt += x->kind == PC_G_TENSOR ? 1 : x->kind == PC_G_TENSORS ? x->u.tensors.len : 0;
    }
    if (nw == 1) continue; /* the written argument itself */
    pc_value *d = &vals[m->ret[i]];
    memset(d, 0, sizeof *d);
    if (nw == 0) {
      d->kind = PC_VAL_NULL;
      continue;
    }
    int32_t *items = pt_arena_array(&w->r->arena, nt ? nt : 1, sizeof *items, 4);
    if (!items) return oom(w->e);
    uint32_t k = 0;
    for (uint32_t a = 0; a < nd->nargs; a++) {
      if (!nd->writes[a]) continue;
      const pc_gvalue *x = &g->values[nd->args[a]];
      if (x->kind == PC_G_TENSOR) items[k++] = index[nd->args[a]];
      if (x->kind == PC_G_TENSORS)
        for (uint32_t t = 0; t < x->u.tensors.len; t++) items[k++] = index[x->u.tensors.ids[t]];
    }
    d->kind = PC_VAL_TENSOR_LIST, d->u.list.items = items, d->u.list.len = k;
  }
  return PTERA_OK;
}

static ptera_status lower_values(lw_out *w, const lw_method *m, const int32_t *index,
                                 pc_value *vals) {
  pt_arena *a = &w->r->arena;
  for (uint32_t v = 0; v < m->g->nvalues; v++) {
    if (index[v] < 0) continue;
    const pc_gvalue *x = &m->g->values[v];
    pc_value *d = &vals[index[v]];
    memset(d, 0, sizeof *d);
    switch (x->kind) {
      case PC_G_NONE: d->kind = PC_VAL_NULL; break;
      case PC_G_INT: d->kind = PC_VAL_INT, d->u.i = x->u.i; break;
      case PC_G_DOUBLE: d->kind = PC_VAL_DOUBLE, d->u.d = x->u.d; break;
      case PC_G_BOOL: d->kind = PC_VAL_BOOL, d->u.b = x->u.b; break;
      case PC_G_STRING: d->kind = PC_VAL_STRING, d->u.str = x->u.str; break;
      case PC_G_DOUBLES:
        d->kind = PC_VAL_DOUBLE_LIST;
        d->u.doubles.items = x->u.doubles.items, d->u.doubles.len = x->u.doubles.len;
        break;
      case PC_G_BOOLS:
        d->kind = PC_VAL_BOOL_LIST;
        d->u.bools.items = x->u.bools.items, d->u.bools.len = x->u.bools.len;
        break;
      case PC_G_INTS: {
        /* Boxed: one Int value per item, just before the list. */
        uint32_t len = x->u.ints.len;
        int32_t *items = pt_arena_array(a, len ? len : 1, sizeof *items, 4);
        if (!items) return oom(w->e);
        for (uint32_t k = 0; k < len; k++) {
          items[k] = index[v] - (int32_t)len + (int32_t)k;
          memset(&vals[items[k]], 0, sizeof vals[0]);
          vals[items[k]].kind = PC_VAL_INT;
          vals[items[k]].u.i = x->u.ints.items[k];
        }
        d->kind = PC_VAL_INT_LIST, d->u.list.items = items, d->u.list.len = len;
        break;
      }
      case PC_G_TENSORS:
      case PC_G_OPT_TENSORS: {
        uint32_t len = x->u.tensors.len;
        int32_t *items = pt_arena_array(a, len ? len : 1, sizeof *items, 4);
        if (!items) return oom(w->e);
        for (uint32_t k = 0; k < len; k++) {
          int32_t t = x->u.tensors.ids[k];
          items[k] = t < 0 ? -1 : index[t];
        }
        d->kind = x->kind == PC_G_TENSORS ? PC_VAL_TENSOR_LIST : PC_VAL_OPT_TENSOR_LIST;
        d->u.list.items = items, d->u.list.len = len;
        break;
      }
      case PC_G_TENSOR: {
        d->kind = PC_VAL_TENSOR;
        ptera_status st = lower_tensor(w, m, (int32_t)v, &d->u.tensor);
        if (st != PTERA_OK) return st;
        break;
      }
      default:
        return pt_fail(w->e, PTERA_INVALID_ARGUMENT, "value %u: unknown kind %d", v, (int)x->kind);
    }
  }
  return PTERA_OK;
}

/* "ns::name.overload" -> name, overload (split at the last '.' after the
 * namespace; none: the default overload ""). */
static ptera_status split_op(pt_arena *a, const char *op, pc_operator *out, pt_err *e) {
  const char *ns = strstr(op, "::");
  const char *start = ns ? ns + 2 : op;
  const char *dot = strrchr(start, '.');
  size_t n = dot ? (size_t)(dot - op) : strlen(op);
  char *name = copy_str(a, op, n);
  char *ovl = copy_str(a, dot ? dot + 1 : "", dot ? strlen(dot + 1) : 0);
  if (!name || !ovl) return oom(e);
  out->name = name;
  out->overload = ovl;
  return PTERA_OK;
}

static ptera_status lower_instrs(lw_out *w, lw_method *m, const int32_t *index,
                                 pc_method *pm) {
  const pc_graph *g = m->g;
  pt_arena *a = &w->r->arena;
  uint32_t n = m->ninstrs;
  pc_instr *instrs = pt_arena_array(a, n ? n : 1, sizeof *instrs, 8);
  pc_operator *ops = pt_arena_array(a, n ? n : 1, sizeof *ops, 8);
  const char **full = pt_arena_array(&m->scratch, n ? n : 1, sizeof *full, 8);
  if (!instrs || !ops || !full) return oom(w->e);
  uint32_t k = 0, nops = 0, ndel = 0;
  for (uint32_t i = 0; i < g->nnodes; i++) ndel += live_call(&g->nodes[i]) && g->nodes[i].delegate;
  pc_delegate *dels = pt_arena_array(a, ndel ? ndel : 1, sizeof *dels, 8);
  if (!dels) return oom(w->e);
  ndel = 0;
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pc_gnode *nd = &g->nodes[i];
    if (nd->kind != PC_N_CALL || nd->removed) continue;
    uint32_t op = 0;
    if (nd->delegate) {
      op = ndel;
      dels[ndel++] = (pc_delegate){nd->op, nd->blob, nd->blob_size};
    } else {
      while (op < nops && strcmp(full[op], nd->op) != 0) op++;
      if (op == nops) {
        ptera_status st = split_op(a, nd->op, &ops[nops], w->e);
        if (st != PTERA_OK) return st;
        full[nops++] = nd->op;
      }
    }
    uint32_t nargs = nd->nargs + (m->ret[i] >= 0);
    int32_t *args = pt_arena_array(a, nargs ? nargs : 1, sizeof *args, 4);
    if (!args) return oom(w->e);
    for (uint32_t j = 0; j < nd->nargs; j++) args[j] = index[nd->args[j]];
    if (m->ret[i] >= 0) args[nd->nargs] = m->ret[i];
    instrs[k++] = (pc_instr){op, args, nargs, nd->delegate};
  }
  pm->delegates = dels, pm->ndelegates = ndel;
  pm->instrs = instrs, pm->ninstrs = n;
  pm->ops = ops, pm->nops = nops;
  return PTERA_OK;
}

static ptera_status lower_io(pt_arena *a, const int32_t *index, const int32_t *ids, uint32_t n,
                             const int32_t **out, pt_err *e) {
  int32_t *d = pt_arena_array(a, n ? n : 1, sizeof *d, 4);
  if (!d) return oom(e);
  for (uint32_t i = 0; i < n; i++) d[i] = index[ids[i]];
  *out = d;
  return PTERA_OK;
}

static ptera_status lower_one(lw_out *w, lw_method *m, uint32_t mi) {
  pc_lower_result *r = w->r;
  const pc_graph *g = m->g;
  pt_arena *a = &r->arena;
  pc_method *pm = (pc_method *)&r->program.methods[mi];
  uint32_t nv = g->nvalues ? g->nvalues : 1;
  m->reach = pt_arena_array(&m->scratch, nv, 1, 1);
  m->is_view = pt_arena_array(&m->scratch, nv, 1, 1);
  m->written = pt_arena_array(&m->scratch, nv, 1, 1);
  m->role = pt_arena_array(&m->scratch, nv, 1, 1);
  m->buf = pt_arena_array(&m->scratch, nv, sizeof *m->buf, 4);
  m->ret = pt_arena_array(&m->scratch, g->nnodes ? g->nnodes : 1, sizeof *m->ret, 4);
  int32_t *index = pt_arena_array(a, nv, sizeof *index, 4);
  if (!m->reach || !m->is_view || !m->written || !m->role || !m->buf || !m->ret || !index)
    return oom(w->e);
  r->value_index[mi] = index;
  ptera_status st = lw_analyze(m);
  if (st == PTERA_OK) st = lw_plan(m, w->o->allocator);
  if (st != PTERA_OK) return st;
  pt_memplan_stats(&m->plan, &r->plans[mi]);
  uint32_t count = 0;
  st = map_values(m, index, &count, w->e);
  if (st != PTERA_OK) return st;
  pc_value *vals = pt_arena_array(a, count ? count : 1, sizeof *vals, 8);
  int64_t *sizes = pt_arena_array(a, m->plan.num_arenas + 1, sizeof *sizes, 8);
  if (!vals || !sizes) return oom(w->e);
  for (uint32_t k = 0; k < m->plan.num_arenas; k++) {
    if (m->plan.arena_sizes[k + 1] > INT64_MAX)
      return pt_fail(w->e, PTERA_NOT_SUPPORTED, "arena too large");
    sizes[k] = (int64_t)m->plan.arena_sizes[k + 1];
  }
  char *name = copy_str(a, g->name ? g->name : "", g->name ? strlen(g->name) : 0);
  if (!name) return oom(w->e);
  pm->name = name;
  pm->values = vals, pm->nvalues = count;
  pm->buffer_sizes = sizes, pm->nbuffers = m->plan.num_arenas;
  st = lower_values(w, m, index, vals);
  if (st == PTERA_OK) st = lower_returns(w, m, index, vals);
  if (st == PTERA_OK) st = lower_instrs(w, m, index, pm);
  if (st == PTERA_OK) st = lower_io(a, index, g->inputs, g->ninputs, &pm->inputs, w->e);
  if (st == PTERA_OK) st = lower_io(a, index, g->outputs, g->noutputs, &pm->outputs, w->e);
  pm->ninputs = g->ninputs, pm->noutputs = g->noutputs;
  return st;
}

/* The graphs' named blobs (delegate weights), one per key: into the .ptd
 * with external weights (as bytes: a uint8 tensor of their length), else
 * into the program's named data. */
static ptera_status lower_named(lw_out *w, pc_graph *const *graphs, uint32_t n) {
  pc_lower_result *r = w->r;
  uint64_t total = 0;
  for (uint32_t i = 0; i < n; i++) total += graphs[i]->nnamed;
  if (total == 0) return PTERA_OK;
  if (total > UINT32_MAX / 2) return pt_fail(w->e, PTERA_NOT_SUPPORTED, "too many named blobs");
  pc_named_blob *named = w->o->external_weights
                             ? NULL
                             : pt_arena_array(&r->arena, (size_t)total, sizeof *named, 8);
  pc_ptd_entry *ptd = w->o->external_weights ? pt_arena_array(&r->arena, (size_t)total + r->nptd,
                                                              sizeof *ptd, 8)
                                             : NULL;
  if (!named && !ptd) return oom(w->e);
  if (ptd && r->nptd) memcpy(ptd, r->ptd, r->nptd * sizeof *ptd);
  uint32_t nn = 0, np = r->nptd;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t k = 0; k < graphs[i]->nnamed; k++) {
      const pc_gnamed *b = &graphs[i]->named[k];
      bool dup = false;
      for (uint32_t j = 0; j < nn && !dup; j++) dup = strcmp(named[j].key, b->key) == 0;
      for (uint32_t j = 0; ptd && j < np && !dup; j++) dup = strcmp(ptd[j].key, b->key) == 0;
      if (dup) continue;
      if (b->nbytes > INT32_MAX)
        return pt_fail(w->e, PTERA_NOT_SUPPORTED, "named blob '%s' too large", b->key);
      if (named) {
        named[nn++] = (pc_named_blob){b->key, b->data, b->nbytes};
        continue;
      }
      int32_t *size = pt_arena_array(&r->arena, 1, sizeof *size, 4);
      if (!size) return oom(w->e);
      *size = (int32_t)b->nbytes;
      ptd[np++] = (pc_ptd_entry){b->key, b->data, b->nbytes, PTERA_DTYPE_BYTE, 1, size, NULL};
    }
  if (named) r->program.named = named, r->program.nnamed = nn;
  else r->ptd = ptd, r->nptd = np;
  return PTERA_OK;
}

ptera_status pc_lower(pc_graph *const *graphs, uint32_t n, const pc_lower_options *options,
                      pc_lower_result *out, pt_err *e) {
  static const pc_lower_options defaults = {NULL, false, PC_WEIGHT_KEYS_FQN, 0};
  const pc_lower_options *o = options ? options : &defaults;
  memset(out, 0, sizeof *out);
  pt_arena_init(&out->arena, o->allocator);
  if (n && !graphs) return pt_fail(e, PTERA_INVALID_ARGUMENT, "no graphs");
  if (o->weight_keys != PC_WEIGHT_KEYS_FQN && o->weight_keys != PC_WEIGHT_KEYS_HASH)
    return pt_fail(e, PTERA_INVALID_ARGUMENT, "unknown weight key kind %d", (int)o->weight_keys);
  uint32_t nm = n ? n : 1;
  pc_method *methods = pt_arena_array(&out->arena, nm, sizeof *methods, 8);
  out->plans = pt_arena_array(&out->arena, nm, sizeof *out->plans, 8);
  out->value_index = pt_arena_array(&out->arena, nm, sizeof *out->value_index, 8);
  if (!methods || !out->plans || !out->value_index) {
    pc_lower_result_free(out);
    return oom(e);
  }
  out->program.methods = methods;
  out->program.nmethods = n;
  lw_out w = {out, o, 0, e};
  ptera_status st = PTERA_OK;
  for (uint32_t i = 0; i < n && st == PTERA_OK; i++) {
    lw_method m;
    memset(&m, 0, sizeof m);
    m.g = graphs[i];
    m.e = e;
    m.alignment = o->alignment;
    pt_arena_init(&m.scratch, o->allocator);
    st = m.g ? lower_one(&w, &m, i) : pt_fail(e, PTERA_INVALID_ARGUMENT, "graph %u is NULL", i);
    if (st != PTERA_OK && m.g && e) pt_err_prefix(e, "method '%s'", m.g->name ? m.g->name : "");
    pt_memplan_free(&m.plan);
    pt_arena_release(&m.scratch);
  }
  if (st == PTERA_OK) st = lower_named(&w, graphs, n);
  if (st != PTERA_OK) pc_lower_result_free(out);
  return st;
}

void pc_lower_result_free(pc_lower_result *r) {
  if (!r) return;
  pt_arena_release(&r->arena);
  const ptera_allocator *a = r->arena.allocator;
  memset(r, 0, sizeof *r);
  pt_arena_init(&r->arena, a);
}

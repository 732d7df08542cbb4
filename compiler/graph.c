/* The compiler IR: construction, alias classes, argument walks. */
#include "graph.h"

pc_graph *pc_graph_new(const ptera_allocator *allocator, const char *name) {
  pc_graph *g = pt_calloc(allocator, 1, sizeof *g, 0);
  if (!g) return NULL;
  g->allocator = allocator;
  pt_arena_init(&g->arena, allocator);
  const char *n = name ? name : "forward";
  size_t len = strlen(n);
  char *copy = pt_arena_alloc(&g->arena, len + 1, 1);
  if (!copy) {
    pc_graph_free(g);
    return NULL;
  }
  memcpy(copy, n, len);
  g->name = copy;
  return g;
}

void pc_graph_free(pc_graph *g) {
  if (!g) return;
  pt_free(g->allocator, g->values);
  pt_free(g->allocator, g->nodes);
  pt_arena_release(&g->arena);
  pt_free(g->allocator, g);
}

static bool oom(pc_graph *g) {
  pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory building graph '%s'", g->name);
  return false;
}

static bool grow(pc_graph *g, void **array, uint32_t *cap, uint32_t count, size_t elem) {
  if (count < *cap) return true;
  uint32_t ncap = *cap ? *cap * 2 : 64;
  if (ncap <= count || ncap > INT32_MAX / 2) return oom(g);
  void *n = pt_calloc(g->allocator, ncap, elem, 0);
  if (!n) return oom(g);
  if (*array) memcpy(n, *array, (size_t)count * elem);
  pt_free(g->allocator, *array);
  *array = n;
  *cap = ncap;
  return true;
}

static pc_gvalue *new_value(pc_graph *g, pc_gkind kind, int32_t *id) {
  if (!grow(g, (void **)&g->values, &g->values_cap, g->nvalues, sizeof *g->values)) return NULL;
  *id = (int32_t)g->nvalues;
  pc_gvalue *v = &g->values[g->nvalues++];
  memset(v, 0, sizeof *v);
  v->kind = kind;
  v->alias_parent = *id;
  return v;
}

static void *copy_array(pc_graph *g, const void *items, size_t count, size_t elem) {
  if (count == 0) return pt_arena_alloc(&g->arena, 1, 8);
  void *p = pt_arena_array(&g->arena, count, elem, 8);
  if (p) memcpy(p, items, count * elem);
  return p;
}

int32_t pc_graph_none(pc_graph *g) {
  int32_t id;
  return new_value(g, PC_G_NONE, &id) ? id : -1;
}

int32_t pc_graph_int(pc_graph *g, int64_t x) {
  int32_t id;
  pc_gvalue *v = new_value(g, PC_G_INT, &id);
  if (!v) return -1;
  v->u.i = x;
  return id;
}

int32_t pc_graph_double(pc_graph *g, double x) {
  int32_t id;
  pc_gvalue *v = new_value(g, PC_G_DOUBLE, &id);
  if (!v) return -1;
  v->u.d = x;
  return id;
}

int32_t pc_graph_bool(pc_graph *g, bool x) {
  int32_t id;
  pc_gvalue *v = new_value(g, PC_G_BOOL, &id);
  if (!v) return -1;
  v->u.b = x;
  return id;
}

int32_t pc_graph_string(pc_graph *g, const char *s) {
  char *copy = copy_array(g, s, strlen(s) + 1, 1);
  if (!copy) return oom(g), -1;
  int32_t id;
  pc_gvalue *v = new_value(g, PC_G_STRING, &id);
  if (!v) return -1;
  v->u.str = copy;
  return id;
}

/* A list value of `kind` holding a copy of len items of elem bytes each. */
static int32_t new_list(pc_graph *g, pc_gkind kind, const void *items, uint32_t len, size_t elem) {
  void *copy = copy_array(g, items, len, elem);
  if (!copy) return oom(g), -1;
  int32_t id;
  pc_gvalue *v = new_value(g, kind, &id);
  if (!v) return -1;
  switch (kind) {
  case PC_G_INTS: v->u.ints.items = copy; v->u.ints.len = len; break;
  case PC_G_DOUBLES: v->u.doubles.items = copy; v->u.doubles.len = len; break;
  case PC_G_BOOLS: v->u.bools.items = copy; v->u.bools.len = len; break;
  default: v->u.tensors.ids = copy; v->u.tensors.len = len; break; /* TENSORS, OPT_TENSORS */
  }
  return id;
}

int32_t pc_graph_ints(pc_graph *g, const int64_t *items, uint32_t len) {
  return new_list(g, PC_G_INTS, items, len, sizeof *items);
}

int32_t pc_graph_doubles(pc_graph *g, const double *items, uint32_t len) {
  return new_list(g, PC_G_DOUBLES, items, len, sizeof *items);
}

int32_t pc_graph_bools(pc_graph *g, const bool *items, uint32_t len) {
  return new_list(g, PC_G_BOOLS, items, len, sizeof *items);
}

int32_t pc_graph_tensor_list(pc_graph *g, const int32_t *ids, uint32_t len, bool optional) {
  for (uint32_t i = 0; i < len; i++) {
    int32_t t = ids[i];
    bool none_ok = optional && t == -1;
    if (!none_ok && (t < 0 || (uint32_t)t >= g->nvalues || g->values[t].kind != PC_G_TENSOR)) {
      pt_fail(&g->err, PTERA_INVALID_ARGUMENT, "tensor list item %u is value %d, not a tensor",
              (unsigned)i, (int)t);
      return -1;
    }
  }
  return new_list(g, optional ? PC_G_OPT_TENSORS : PC_G_TENSORS, ids, len, sizeof *ids);
}

size_t pc_gtensor_nbytes(const pc_gtensor *t) {
  uint64_t n = ptera_dtype_size(t->dtype);
  for (uint32_t i = 0; i < t->dim; i++)
    if (!pt_mul_u64(n, (uint64_t)t->sizes[i], &n)) return SIZE_MAX;
  return n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

const uint8_t *pc_graph_copy_data(pc_graph *g, const void *data, size_t nbytes) {
  uint8_t *p = pt_arena_alloc(&g->arena, nbytes ? nbytes : 1, 16);
  if (p && nbytes) memcpy(p, data, nbytes);
  return p;
}

int32_t pc_graph_tensor(pc_graph *g, int dtype, uint32_t dim, const int32_t *sizes,
                        pc_tstore store, const void *data, size_t nbytes, const char *fqn) {
  if (ptera_dtype_size(dtype) == 0 || dim > PTERA_MAX_DIM) {
    pt_fail(&g->err, PTERA_INVALID_ARGUMENT, "tensor of dtype %d and rank %u is not supported",
            dtype, (unsigned)dim);
    return -1;
  }
  pc_gtensor t;
  memset(&t, 0, sizeof t);
  t.dtype = (uint8_t)dtype;
  t.dim = (uint8_t)dim;
  t.store = store;
  for (uint32_t i = 0; i < dim; i++) {
    if (sizes[i] < 0) {
      pt_fail(&g->err, PTERA_INVALID_ARGUMENT, "tensor size %d at dim %u is negative",
              (int)sizes[i], (unsigned)i);
      return -1;
    }
    t.sizes[i] = sizes[i];
    t.dim_order[i] = (uint8_t)i;
  }
  size_t need = pc_gtensor_nbytes(&t);
  if (store == PC_T_ACTIVATION) {
    if (data || nbytes) {
      pt_fail(&g->err, PTERA_INVALID_ARGUMENT, "an activation tensor cannot carry data");
      return -1;
    }
  } else {
    if (nbytes != need || (need && !data)) {
      pt_fail(&g->err, PTERA_INVALID_ARGUMENT,
              "tensor '%s' has %zu bytes of data, its %s shape needs %zu", fqn ? fqn : "?",
              nbytes, ptera_dtype_name(dtype), need);
      return -1;
    }
    t.data = pc_graph_copy_data(g, data, nbytes);
    t.nbytes = nbytes;
    if (!t.data) return oom(g), -1;
  }
  if (fqn) {
    t.fqn = copy_array(g, fqn, strlen(fqn) + 1, 1);
    if (!t.fqn) return oom(g), -1;
  }
  int32_t id;
  pc_gvalue *v = new_value(g, PC_G_TENSOR, &id);
  if (!v) return -1;
  v->u.t = t;
  return id;
}

static bool valid_id(pc_graph *g, int32_t v, const char *what) {
  if (v >= 0 && (uint32_t)v < g->nvalues) return true;
  pt_fail(&g->err, PTERA_INVALID_ARGUMENT, "%s refers to value %d; the graph has %u", what, (int)v,
          (unsigned)g->nvalues);
  return false;
}

static int32_t new_node(pc_graph *g, pc_nkind kind, const char *op, const int32_t *args,
                        const uint8_t *writes, uint32_t nargs) {
  for (uint32_t i = 0; i < nargs; i++)
    if (!valid_id(g, args[i], op)) return -1;
  if (!grow(g, (void **)&g->nodes, &g->nodes_cap, g->nnodes, sizeof *g->nodes)) return -1;
  pc_gnode n;
  memset(&n, 0, sizeof n);
  n.kind = kind;
  n.op = copy_array(g, op, strlen(op) + 1, 1);
  n.args = copy_array(g, args, nargs, sizeof *args);
  n.writes = pt_arena_alloc(&g->arena, nargs ? nargs : 1, 1);
  if (!n.op || !n.args || !n.writes) return oom(g), -1;
  if (writes) memcpy(n.writes, writes, nargs);
  n.nargs = nargs;
  g->nodes[g->nnodes] = n;
  return (int32_t)g->nnodes++;
}

int32_t pc_graph_call(pc_graph *g, const char *op, const int32_t *args, const uint8_t *writes,
                      uint32_t nargs) {
  return new_node(g, PC_N_CALL, op, args, writes, nargs);
}

int32_t pc_graph_region(pc_graph *g, bool begin, const char *kind) {
  return new_node(g, begin ? PC_N_REGION_BEGIN : PC_N_REGION_END, kind ? kind : "", NULL, NULL,
                  0);
}

ptera_status pc_graph_set_scope(pc_graph *g, uint32_t k, const pc_gscope *scope, uint32_t n) {
  if (k >= g->nnodes)
    return pt_fail(&g->err, PTERA_INVALID_ARGUMENT, "scope of node %u; the graph has %u", k,
                   (unsigned)g->nnodes);
  for (uint32_t i = 0; i < n; i++)
    if (!*scope[i].path || !*scope[i].type || strchr(scope[i].type, ':'))
      return pt_fail(&g->err, PTERA_INVALID_ARGUMENT,
                     "scope of node %u: module %u needs a non-empty name and type, the type "
                     "without ':'", k, i);
  pc_gscope *s = n ? pt_arena_array(&g->arena, n, sizeof *s, 8) : NULL;
  if (n && !s) return oom(g), g->err.status;
  for (uint32_t i = 0; i < n; i++) {
    s[i].path = copy_array(g, scope[i].path, strlen(scope[i].path) + 1, 1);
    s[i].type = copy_array(g, scope[i].type, strlen(scope[i].type) + 1, 1);
    if (!s[i].path || !s[i].type) return oom(g), g->err.status;
  }
  g->nodes[k].scope = s;
  g->nodes[k].nscope = n;
  return PTERA_OK;
}

static ptera_status set_list(pc_graph *g, int32_t **dst, uint32_t *count, const int32_t *ids,
                             uint32_t n, const char *what) {
  for (uint32_t i = 0; i < n; i++)
    if (!valid_id(g, ids[i], what)) return g->err.status;
  int32_t *copy = copy_array(g, ids, n, sizeof *ids);
  if (!copy) return oom(g), g->err.status;
  *dst = copy;
  *count = n;
  return PTERA_OK;
}

ptera_status pc_graph_set_inputs(pc_graph *g, const int32_t *ids, uint32_t n) {
  return set_list(g, &g->inputs, &g->ninputs, ids, n, "method input");
}

ptera_status pc_graph_set_outputs(pc_graph *g, const int32_t *ids, uint32_t n) {
  return set_list(g, &g->outputs, &g->noutputs, ids, n, "method output");
}

int32_t pc_graph_alias_root(const pc_graph *g, int32_t v) {
  if (v < 0 || (uint32_t)v >= g->nvalues) return v;
  while (g->values[v].alias_parent != v) v = g->values[v].alias_parent;
  return v;
}

ptera_status pc_graph_alias(pc_graph *g, int32_t a, int32_t b) {
  if (!valid_id(g, a, "alias") || !valid_id(g, b, "alias")) return g->err.status;
  int32_t ra = pc_graph_alias_root(g, a), rb = pc_graph_alias_root(g, b);
  if (ra == rb) return PTERA_OK;
  /* The older value stays the root so a base tensor represents its views. */
  if (ra < rb) g->values[rb].alias_parent = ra;
  else g->values[ra].alias_parent = rb;
  return PTERA_OK;
}

void pc_graph_visit_args(const pc_graph *g, const pc_gnode *n, pc_arg_visitor fn, void *ctx) {
  for (uint32_t i = 0; i < n->nargs; i++) {
    int32_t a = n->args[i];
    bool w = n->writes[i] != 0;
    fn(ctx, a, w);
    const pc_gvalue *v = &g->values[a];
    if (v->kind != PC_G_TENSORS && v->kind != PC_G_OPT_TENSORS) continue;
    for (uint32_t k = 0; k < v->u.tensors.len; k++)
      if (v->u.tensors.ids[k] >= 0) fn(ctx, v->u.tensors.ids[k], w);
  }
}

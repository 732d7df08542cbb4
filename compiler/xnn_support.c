/* Which calls the XNNPACK delegate runs (to_xnnpack.h lists them): the op,
 * its dtypes, shapes and attributes, checked per call. */
#include "to_xnnpack.h"

ptera_status pc_xnn_ctx_init(pc_xnn_ctx *c, pc_graph *g) {
  memset(c, 0, sizeof *c);
  c->g = g;
  ptera_status st = pc_mutation_analyze(g, &c->m);
  if (st != PTERA_OK) return st;
  size_t nv = g->nvalues ? g->nvalues : 1;
  c->reads = pt_calloc(g->allocator, nv, sizeof *c->reads + 4, 0);
  /* pc_xnn_build's maps: 7 words (ids in two layouts, fusable, qint8 ids in
   * two layouts, qint8 scale and zero point) and 4 bytes (native layout,
   * partition input, qint8 parameters chosen, parameters free) per value. */
  c->maps = pt_alloc(g->allocator, nv * (7 * sizeof(int32_t) + 4), 8);
  if (c->maps) {
    memset(c->maps, 0xff, nv * (7 * sizeof(int32_t) + 1));
    memset((uint8_t *)c->maps + nv * (7 * sizeof(int32_t) + 1), 0, 3 * nv);
  }
  if (c->reads) {
    c->native = (int8_t *)(c->reads + nv);
    c->wants_nhwc = (uint8_t *)c->native + nv;
    c->handoff = c->wants_nhwc + nv;
    c->foreign = c->handoff + nv;
    memset(c->native, 0xff, nv);
    pc_qscope_foreign(g, c->foreign);
  }
  if (!c->reads || !c->maps) {
    pt_free(g->allocator, c->reads);
    pt_free(g->allocator, c->maps);
    c->reads = NULL, c->maps = NULL;
    pc_mutation_free(g, &c->m);
    return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory in '%s'", g->name);
  }
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->removed || n->kind != PC_N_CALL) continue;
    for (uint32_t a = 0; a < n->nargs; a++) {
      const pc_gvalue *x = &g->values[n->args[a]];
      if (!n->writes[a]) c->reads[n->args[a]]++;
      if ((x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS) && !n->writes[a])
        for (uint32_t i = 0; i < x->u.tensors.len; i++)
          if (x->u.tensors.ids[i] >= 0) c->reads[x->u.tensors.ids[i]]++;
    }
  }
  return PTERA_OK;
}

void pc_xnn_ctx_free(pc_xnn_ctx *c) {
  if (!c->g) return;
  pc_mutation_free(c->g, &c->m);
  pt_free(c->g->allocator, c->reads);
  pt_free(c->g->allocator, c->maps);
  memset(c, 0, sizeof *c);
}

static const pc_gtensor *tensor_of(const pc_graph *g, int32_t v) {
  return v >= 0 && g->values[v].kind == PC_G_TENSOR ? &g->values[v].u.t : NULL;
}

/* A float32 tensor XNNPACK can hold: contiguous, rank <= 6, static shape
 * (or, with bounded, a bounded dynamic one). */
static bool f32(const pc_graph *g, int32_t v, bool bounded) {
  const pc_gtensor *t = tensor_of(g, v);
  if (!t || t->dtype != PTERA_DTYPE_FLOAT || t->dim > PF_XNN_MAX_DIMS ||
      t->dynamism > (bounded ? 1 : 0))
    return false;
  for (uint32_t i = 0; i < t->dim; i++)
    if (t->dim_order[i] != i || t->sizes[i] <= 0) return false;
  return true;
}

static bool is_const(const pc_graph *g, int32_t v) {
  const pc_gtensor *t = tensor_of(g, v);
  return t && t->store == PC_T_CONST && t->nbytes == pc_gtensor_nbytes(t);
}

/* An output the delegate may write: a fresh activation of its own storage. */
static bool fresh_out(const pc_xnn_ctx *c, int32_t v, bool bounded) {
  const pc_graph *g = c->g;
  const pc_gtensor *t = tensor_of(g, v);
  return t && f32(g, v, bounded) && t->store == PC_T_ACTIVATION &&
         c->m.class_size[pc_graph_alias_root(g, v)] == 1 && !c->m.is_input[v];
}

static bool int_of(const pc_graph *g, int32_t v, int64_t *out) {
  if (g->values[v].kind != PC_G_INT) return false;
  *out = g->values[v].u.i;
  return true;
}

static bool is_one(const pc_graph *g, int32_t v) {
  const pc_gvalue *x = &g->values[v];
  return (x->kind == PC_G_INT && x->u.i == 1) || (x->kind == PC_G_DOUBLE && x->u.d == 1.0);
}

static bool is_none(const pc_graph *g, int32_t v) { return g->values[v].kind == PC_G_NONE; }

/* Two non-negative ints (a 2-D kernel, stride, padding or dilation). */
static bool pair(const pc_graph *g, int32_t v, int64_t lo) {
  const pc_gvalue *x = &g->values[v];
  return x->kind == PC_G_INTS && x->u.ints.len == 2 && x->u.ints.items[0] >= lo &&
         x->u.ints.items[1] >= lo && x->u.ints.items[0] < 65536 && x->u.ints.items[1] < 65536;
}

static bool is_false(const pc_graph *g, int32_t v) {
  return g->values[v].kind == PC_G_BOOL && !g->values[v].u.b;
}

static bool scalar_or_none(const pc_graph *g, int32_t v) {
  pc_gkind k = g->values[v].kind;
  return k == PC_G_NONE || k == PC_G_INT || k == PC_G_DOUBLE;
}

static bool conv(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_graph *g = c->g;
  if (n->nargs != 10) return false;
  const pc_gtensor *x = tensor_of(g, n->args[0]), *w = tensor_of(g, n->args[1]),
                   *y = tensor_of(g, n->args[9]);
  int64_t groups;
  if (!f32(g, n->args[0], false) || !fresh_out(c, n->args[9], false) || x->dim != 4 ||
      !f32(g, n->args[1], false) || !is_const(g, n->args[1]) || w->dim != 4 ||
      !pair(g, n->args[3], 1) || !pair(g, n->args[4], 0) || !pair(g, n->args[5], 1) ||
      !is_false(g, n->args[6]) || !int_of(g, n->args[8], &groups) || groups < 1 ||
      x->sizes[1] % groups != 0 || w->sizes[0] % groups != 0 || w->sizes[1] * groups != x->sizes[1] ||
      y->dim != 4 || y->sizes[1] != w->sizes[0])
    return false;
  if (!is_none(g, n->args[2])) {
    const pc_gtensor *b = tensor_of(g, n->args[2]);
    if (!f32(g, n->args[2], false) || !is_const(g, n->args[2]) || b->dim != 1 ||
        b->sizes[0] != w->sizes[0])
      return false;
  }
  /* The output size the XNNPACK formula gives must be the graph's. */
  const int64_t *st = g->values[n->args[3]].u.ints.items, *pd = g->values[n->args[4]].u.ints.items,
                *dl = g->values[n->args[5]].u.ints.items;
  for (int d = 0; d < 2; d++) {
    int64_t in = x->sizes[2 + d], k = w->sizes[2 + d];
    int64_t eff = dl[d] * (k - 1) + 1, o = (in + 2 * pd[d] - eff) / st[d] + 1;
    if (in + 2 * pd[d] < eff || o != y->sizes[2 + d]) return false;
  }
  return y->sizes[0] == x->sizes[0];
}

/* mm(x, W) / addmm(b, x, W) with a constant [ic, oc] W; linear(x, W[, b])
 * with a constant [oc, ic] W. */
static bool fully_connected(const pc_xnn_ctx *c, const pc_gnode *n, int kind) {
  const pc_graph *g = c->g;
  int32_t x = kind == 2 ? n->args[1] : n->args[0], w = kind == 2 ? n->args[2] : n->args[1];
  int32_t b = kind == 0 ? -1 : kind == 1 ? n->args[2] : n->args[0], y = n->args[n->nargs - 1];
  const pc_gtensor *tx = tensor_of(g, x), *tw = tensor_of(g, w);
  if (!f32(g, x, true) || !fresh_out(c, y, true) || !f32(g, w, false) || !is_const(g, w) ||
      tw->dim != 2 || tx->dim < 1)
    return false;
  int32_t ic = kind == 1 ? tw->sizes[1] : tw->sizes[0], oc = kind == 1 ? tw->sizes[0] : tw->sizes[1];
  if (kind != 1 && tx->dim != 2) return false;
  if (tx->sizes[tx->dim - 1] != ic) return false;
  if (b >= 0 && !is_none(g, b)) {
    const pc_gtensor *tb = tensor_of(g, b);
    if (!f32(g, b, false) || !is_const(g, b) || tb->dim != 1 || tb->sizes[0] != oc) return false;
  }
  return kind != 2 || (is_one(g, n->args[3]) && is_one(g, n->args[4]));
}

static bool binary(const pc_xnn_ctx *c, const pc_gnode *n, bool alpha) {
  const pc_graph *g = c->g;
  if (n->nargs != (alpha ? 4u : 3u) || (alpha && !is_one(g, n->args[2]))) return false;
  int32_t y = n->args[n->nargs - 1];
  if (!f32(g, n->args[0], true) || !f32(g, n->args[1], true) || !fresh_out(c, y, true)) return false;
  const pc_gtensor *a = tensor_of(g, n->args[0]), *b = tensor_of(g, n->args[1]),
                   *t = tensor_of(g, y);
  /* NumPy broadcasting, right-aligned, to the output's shape. */
  uint32_t r = a->dim > b->dim ? a->dim : b->dim;
  if (t->dim != r) return false;
  for (uint32_t i = 0; i < r; i++) {
    int32_t da = i < r - a->dim ? 1 : a->sizes[i - (r - a->dim)];
    int32_t db = i < r - b->dim ? 1 : b->sizes[i - (r - b->dim)];
    int32_t want = da > db ? da : db;
    if ((da != 1 && da != want) || (db != 1 && db != want) || t->sizes[i] != want) return false;
  }
  return true;
}

static bool unary(const pc_xnn_ctx *c, const pc_gnode *n, uint32_t nargs) {
  return n->nargs == nargs && f32(c->g, n->args[0], true) &&
         fresh_out(c, n->args[n->nargs - 1], true);
}

static bool pool(const pc_xnn_ctx *c, const pc_gnode *n, bool max) {
  const pc_graph *g = c->g;
  if (n->nargs != 8 || !f32(g, n->args[0], false)) return false;
  int32_t y = max ? n->args[6] : n->args[7];
  const pc_gtensor *x = tensor_of(g, n->args[0]), *t = tensor_of(g, y);
  if (!fresh_out(c, y, false) || x->dim != 4 || t->dim != 4 || !pair(g, n->args[1], 1) ||
      !pair(g, n->args[3], 0))
    return false;
  const pc_gvalue *sv = &g->values[n->args[2]];
  if (sv->kind != PC_G_INTS || (sv->u.ints.len != 0 && !pair(g, n->args[2], 1))) return false;
  const int64_t *k = g->values[n->args[1]].u.ints.items, *pd = g->values[n->args[3]].u.ints.items;
  const int64_t *s = sv->u.ints.len ? sv->u.ints.items : k;
  int64_t dl[2] = {1, 1};
  if (max) {
    /* indices unread, floor mode */
    if (!pair(g, n->args[4], 1) || !is_false(g, n->args[5]) || c->reads[n->args[7]] != 0 ||
        c->m.is_output[n->args[7]])
      return false;
    dl[0] = g->values[n->args[4]].u.ints.items[0];
    dl[1] = g->values[n->args[4]].u.ints.items[1];
  } else {
    bool pad = pd[0] || pd[1];
    if (!is_false(g, n->args[4]) || !is_none(g, n->args[6]) ||
        (pad && !is_false(g, n->args[5])))
      return false;
  }
  for (int d = 0; d < 2; d++) {
    int64_t in = x->sizes[2 + d], eff = dl[d] * (k[d] - 1) + 1;
    if (2 * pd[d] > k[d] || in + 2 * pd[d] < eff ||
        (in + 2 * pd[d] - eff) / s[d] + 1 != t->sizes[2 + d])
      return false;
  }
  return t->sizes[0] == x->sizes[0] && t->sizes[1] == x->sizes[1];
}

/* mean(x, [-1, -2] or [2, 3], keepdim) / _adaptive_avg_pool2d(x, [1, 1]). */
static bool global_avg(const pc_xnn_ctx *c, const pc_gnode *n, bool mean) {
  const pc_graph *g = c->g;
  if (n->nargs != (mean ? 5u : 3u) || !f32(g, n->args[0], false)) return false;
  int32_t y = n->args[n->nargs - 1];
  const pc_gtensor *x = tensor_of(g, n->args[0]), *t = tensor_of(g, y);
  if (!fresh_out(c, y, false) || x->dim != 4 || t->dim != 4 || t->sizes[2] != 1 ||
      t->sizes[3] != 1 || t->sizes[0] != x->sizes[0] || t->sizes[1] != x->sizes[1])
    return false;
  const pc_gvalue *d = &g->values[n->args[1]];
  if (d->kind != PC_G_INTS || d->u.ints.len != 2) return false;
  if (!mean) return d->u.ints.items[0] == 1 && d->u.ints.items[1] == 1;
  int64_t a = (d->u.ints.items[0] + 4) % 4, b = (d->u.ints.items[1] + 4) % 4;
  return ((a == 2 && b == 3) || (a == 3 && b == 2)) && g->values[n->args[2]].kind == PC_G_BOOL &&
         g->values[n->args[2]].u.b && is_none(g, n->args[3]);
}

static bool reshape(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_graph *g = c->g;
  int32_t y = n->args[n->nargs - 1];
  return f32(g, n->args[0], false) && fresh_out(c, y, false) &&
         pc_gtensor_nbytes(tensor_of(g, n->args[0])) == pc_gtensor_nbytes(tensor_of(g, y));
}

static bool permute(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_graph *g = c->g;
  int32_t y = n->args[n->nargs - 1];
  if (!f32(g, n->args[0], false) || !fresh_out(c, y, false)) return false;
  uint32_t r = tensor_of(g, n->args[0])->dim;
  if (strcmp(n->op, "aten::t_copy.out") == 0) return n->nargs == 2 && r <= 2;
  if (strcmp(n->op, "aten::transpose_copy.int_out") == 0) {
    int64_t a, b;
    return n->nargs == 4 && int_of(g, n->args[1], &a) && int_of(g, n->args[2], &b) &&
           a >= -(int64_t)r && a < (int64_t)r && b >= -(int64_t)r && b < (int64_t)r;
  }
  const pc_gvalue *p = &g->values[n->args[1]];
  if (n->nargs != 3 || p->kind != PC_G_INTS || p->u.ints.len != r) return false;
  uint32_t seen = 0;
  for (uint32_t i = 0; i < r; i++) {
    int64_t d = p->u.ints.items[i] < 0 ? p->u.ints.items[i] + r : p->u.ints.items[i];
    if (d < 0 || d >= (int64_t)r || (seen >> d) & 1) return false;
    seen |= 1u << d;
  }
  return true;
}

static bool softmax(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_graph *g = c->g;
  int64_t d;
  if (n->nargs != 4 || !unary(c, n, 4) || !int_of(g, n->args[1], &d) || !is_false(g, n->args[2]))
    return false;
  int64_t r = tensor_of(g, n->args[0])->dim;
  return r >= 1 && (d == r - 1 || d == -1);
}

static bool bmm(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_graph *g = c->g;
  if (n->nargs != 3 || !f32(g, n->args[0], false) || !f32(g, n->args[1], false) ||
      !fresh_out(c, n->args[2], false))
    return false;
  const pc_gtensor *a = tensor_of(g, n->args[0]), *b = tensor_of(g, n->args[1]);
  return a->dim == 3 && b->dim == 3 && a->sizes[0] == b->sizes[0] && a->sizes[2] == b->sizes[1];
}

static bool cat(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_graph *g = c->g;
  const pc_gvalue *l = &g->values[n->args[0]];
  int64_t d;
  if (n->nargs != 3 || l->kind != PC_G_TENSORS || l->u.tensors.len < 2 || l->u.tensors.len > 5 ||
      !int_of(g, n->args[1], &d) || !fresh_out(c, n->args[2], false))
    return false;
  uint32_t r = tensor_of(g, n->args[2])->dim;
  if (d < -(int64_t)r || d >= (int64_t)r) return false;
  for (uint32_t i = 0; i < l->u.tensors.len; i++) {
    int32_t t = l->u.tensors.ids[i];
    if (!f32(g, t, false) || tensor_of(g, t)->dim != r) return false;
  }
  return true;
}

/* add/sub.Scalar_out(x, s, alpha), mul/div.Scalar_out(x, s): a float x and
 * a number. */
static bool scalar_binary(const pc_xnn_ctx *c, const pc_gnode *n, bool alpha) {
  const pc_graph *g = c->g;
  pc_gkind k = g->values[n->args[1]].kind, ka = alpha ? g->values[n->args[2]].kind : PC_G_INT;
  return n->nargs == (alpha ? 4u : 3u) && (k == PC_G_INT || k == PC_G_DOUBLE) &&
         (ka == PC_G_INT || ka == PC_G_DOUBLE) && unary(c, n, n->nargs);
}

/* slice_copy.Tensor_out(x, dim, start, end, step 1): a static window. */
static bool slice(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_graph *g = c->g;
  int64_t d, step = 1;
  if (n->nargs != 6 || !f32(g, n->args[0], false) || !fresh_out(c, n->args[5], false) ||
      !int_of(g, n->args[1], &d) || (!is_none(g, n->args[4]) && !int_of(g, n->args[4], &step)) ||
      step != 1 || (!is_none(g, n->args[2]) && g->values[n->args[2]].kind != PC_G_INT))
    return false;
  const pc_gtensor *x = tensor_of(g, n->args[0]), *y = tensor_of(g, n->args[5]);
  if (x->dim != y->dim || d < -(int64_t)x->dim || d >= (int64_t)x->dim) return false;
  if (d < 0) d += x->dim;
  int64_t start = is_none(g, n->args[2]) ? 0 : g->values[n->args[2]].u.i;
  if (start < 0) start += x->sizes[d];
  if (start < 0) start = 0;
  for (uint32_t i = 0; i < x->dim; i++)
    if (i != (uint32_t)d && x->sizes[i] != y->sizes[i]) return false;
  return start + y->sizes[d] <= x->sizes[d];
}

/* split_copy.Tensor_out(x, size, dim, outs): static pieces along dim. */
static bool split(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_graph *g = c->g;
  int64_t size, d;
  if (n->nargs != 4 || !f32(g, n->args[0], false) || !int_of(g, n->args[1], &size) || size <= 0 ||
      !int_of(g, n->args[2], &d) || g->values[n->args[3]].kind != PC_G_TENSORS || !n->writes[3])
    return false;
  const pc_gtensor *x = tensor_of(g, n->args[0]);
  if (d < -(int64_t)x->dim || d >= (int64_t)x->dim) return false;
  if (d < 0) d += x->dim;
  const pc_gvalue *l = &g->values[n->args[3]];
  int64_t at = 0;
  for (uint32_t i = 0; i < l->u.tensors.len; i++) {
    int32_t t = l->u.tensors.ids[i];
    if (!fresh_out(c, t, false) || tensor_of(g, t)->dim != x->dim) return false;
    const pc_gtensor *y = tensor_of(g, t);
    for (uint32_t k = 0; k < x->dim; k++)
      if (k != (uint32_t)d && y->sizes[k] != x->sizes[k]) return false;
    if (y->sizes[d] != (x->sizes[d] - at < size ? x->sizes[d] - at : size)) return false;
    at += y->sizes[d];
  }
  return at == x->sizes[d];
}

static bool gelu(const pc_xnn_ctx *c, const pc_gnode *n) {
  const pc_gvalue *a = &c->g->values[n->args[1]];
  return unary(c, n, 3) && a->kind == PC_G_STRING && strcmp(a->u.str, "none") == 0;
}

bool pc_xnn_supported(void *ctx, const pc_graph *g, uint32_t node) {
  const pc_xnn_ctx *c = ctx;
  const pc_gnode *n = &g->nodes[node];
  const char *op = n->op;
  if (n->kind != PC_N_CALL || n->removed || n->delegate || n->nargs == 0) return false;
  if (strcmp(op, "aten::convolution.out") == 0) return conv(c, n);
  if (strcmp(op, "aten::linear.out") == 0) return n->nargs == 4 && fully_connected(c, n, 1);
  if (strcmp(op, "aten::mm.out") == 0) return n->nargs == 3 && fully_connected(c, n, 0);
  if (strcmp(op, "aten::addmm.out") == 0) return n->nargs == 6 && fully_connected(c, n, 2);
  if (strcmp(op, "aten::add.out") == 0 || strcmp(op, "aten::sub.out") == 0) return binary(c, n, true);
  if (strcmp(op, "aten::mul.out") == 0 || strcmp(op, "aten::div.out") == 0) return binary(c, n, false);
  if (strcmp(op, "aten::relu.out") == 0) return unary(c, n, 2);
  if (strcmp(op, "aten::hardtanh.out") == 0)
    return unary(c, n, 4) && scalar_or_none(g, n->args[1]) && scalar_or_none(g, n->args[2]) &&
           !is_none(g, n->args[1]) && !is_none(g, n->args[2]);
  if (strcmp(op, "aten::clamp.out") == 0)
    return unary(c, n, 4) && scalar_or_none(g, n->args[1]) && scalar_or_none(g, n->args[2]);
  static const char *const unaries[] = {
      "aten::sigmoid.out", "aten::tanh.out",  "aten::exp.out",   "aten::log.out",
      "aten::neg.out",     "aten::abs.out",   "aten::sqrt.out",  "aten::rsqrt.out",
      "aten::floor.out",   "aten::ceil.out"};
  for (size_t i = 0; i < sizeof unaries / sizeof *unaries; i++)
    if (strcmp(op, unaries[i]) == 0) return unary(c, n, 2);
  if (strcmp(op, "aten::gelu.out") == 0) return gelu(c, n);
  if (strcmp(op, "aten::add.Scalar_out") == 0 || strcmp(op, "aten::sub.Scalar_out") == 0)
    return scalar_binary(c, n, true);
  if (strcmp(op, "aten::mul.Scalar_out") == 0 || strcmp(op, "aten::div.Scalar_out") == 0)
    return scalar_binary(c, n, false);
  if (strcmp(op, "aten::pow.Tensor_Scalar_out") == 0) {
    const pc_gvalue *e = &g->values[n->args[1]];
    return unary(c, n, 3) && ((e->kind == PC_G_INT && e->u.i == 2) ||
                              (e->kind == PC_G_DOUBLE && e->u.d == 2.0));
  }
  if (strcmp(op, "aten::clone.out") == 0) {
    int64_t mf = 0;
    return unary(c, n, 3) && (is_none(g, n->args[1]) || (int_of(g, n->args[1], &mf) && mf <= 1));
  }
  if (strcmp(op, "aten::slice_copy.Tensor_out") == 0) return slice(c, n);
  if (strcmp(op, "aten::split_copy.Tensor_out") == 0) return split(c, n);
  if (strcmp(op, "aten::max_pool2d_with_indices.out") == 0) return pool(c, n, true);
  if (strcmp(op, "aten::avg_pool2d.out") == 0) return pool(c, n, false);
  if (strcmp(op, "aten::mean.out") == 0) return global_avg(c, n, true);
  if (strcmp(op, "aten::_adaptive_avg_pool2d.out") == 0) return global_avg(c, n, false);
  if (strcmp(op, "aten::view_copy.out") == 0 || strcmp(op, "aten::squeeze_copy.dims_out") == 0 ||
      strcmp(op, "aten::squeeze_copy.dim_out") == 0 || strcmp(op, "aten::unsqueeze_copy.out") == 0 ||
      strcmp(op, "aten::expand_copy.out") == 0) /* an expand that broadcasts nothing (same bytes) */
    return reshape(c, n);
  if (strcmp(op, "aten::permute_copy.out") == 0 || strcmp(op, "aten::transpose_copy.int_out") == 0 ||
      strcmp(op, "aten::t_copy.out") == 0)
    return permute(c, n);
  if (strcmp(op, "aten::_softmax.out") == 0) return softmax(c, n);
  if (strcmp(op, "aten::bmm.out") == 0) return bmm(c, n);
  if (strcmp(op, "aten::cat.out") == 0) return cat(c, n);
  return false;
}

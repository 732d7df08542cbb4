/* BatchNorm folding (passes.h). An inference-mode batch norm right after a
 * convolution is an affine map per output channel, so it folds into the
 * convolution's weight and bias:
 *
 *   y = convolution(x, W, b, stride, padding, dilation, false, opad, groups)
 *   z, _, _ = _native_batch_norm_legit_no_training(y, g, beta, mean, var, m, eps)
 *
 *   ->  z = convolution(x, W', b', stride, padding, dilation, false, opad, groups)
 *
 *   s[c]      = g[c] / sqrt(var[c] + eps)           (g = 1, beta = 0 when None)
 *   W'[c,...] = W[c,...] * s[c]
 *   b'[c]     = (b[c] - mean[c]) * s[c] + beta[c]   (b = 0 when None)
 *
 * computed in double and stored as new float constants (W and b may have
 * other readers; they are left for dead-code elimination). It applies when
 * everything is float32; W, b, g, beta, mean and var are constants nothing
 * writes (and, with names replaceable after compiling, without a name); y is
 * read by the batch norm alone and is no method output, alias or input; the
 * batch norm's two statistics outputs are read by nothing; and no call between
 * the two touches z. Transposed convolutions (output channels on dim 1 of W)
 * are left as they are. */
#include <math.h>

#include "mutation.h"
#include "passes.h"

#define CONV_OP "aten::convolution.out"
#define BN_OP "aten::_native_batch_norm_legit_no_training.out"

static const pc_gtensor *tensor_of(const pc_graph *g, int32_t v) {
  return v >= 0 && g->values[v].kind == PC_G_TENSOR ? &g->values[v].u.t : NULL;
}

static bool is_none(const pc_graph *g, int32_t v) { return g->values[v].kind == PC_G_NONE; }

/* A float32 constant nothing writes, contiguous, of rank 1 and length c when
 * c >= 0. */
static bool plain_const(const pc_graph *g, const pc_mutation *m, int32_t v, int32_t c) {
  const pc_gtensor *t = tensor_of(g, v);
  if (!t || t->store != PC_T_CONST || t->dtype != PTERA_DTYPE_FLOAT || m->mutated[v] ||
      (g->named_consts_replaceable && t->fqn) ||
      t->nbytes != pc_gtensor_nbytes(t))
    return false;
  for (uint32_t i = 0; i < t->dim; i++)
    if (t->dim_order[i] != i) return false;
  return c < 0 || (t->dim == 1 && t->sizes[0] == c);
}

static bool optional_const(const pc_graph *g, const pc_mutation *m, int32_t v, int32_t c) {
  return is_none(g, v) || plain_const(g, m, v, c);
}

/* Per value: how many times live calls read it, and the last call that does. */
typedef struct readers {
  uint32_t *count;
  int32_t *last;
  uint32_t node;
} readers;

static void count_read(void *ctx, int32_t value, bool written) {
  readers *r = ctx;
  if (written) return;
  r->count[value]++;
  r->last[value] = (int32_t)r->node;
}

static bool readers_init(const pc_graph *g, readers *r) {
  r->count = pt_calloc(g->allocator, g->nvalues ? g->nvalues : 1, sizeof *r->count, 0);
  r->last = pt_calloc(g->allocator, g->nvalues ? g->nvalues : 1, sizeof *r->last, 0);
  if (!r->count || !r->last) return false;
  for (r->node = 0; r->node < g->nnodes; r->node++)
    if (!g->nodes[r->node].removed && g->nodes[r->node].kind == PC_N_CALL)
      pc_graph_visit_args(g, &g->nodes[r->node], count_read, r);
  return true;
}

static void readers_free(const pc_graph *g, readers *r) {
  pt_free(g->allocator, r->count);
  pt_free(g->allocator, r->last);
}

typedef struct touch {
  const pc_graph *g;
  int32_t root;
  bool hit;
} touch;

static void touch_visit(void *ctx, int32_t value, bool written) {
  (void)written;
  touch *t = ctx;
  if (pc_graph_alias_root(t->g, value) == t->root) t->hit = true;
}

/* Some live call strictly between nodes a and b touches v's alias class. */
static bool touched_between(const pc_graph *g, uint32_t a, uint32_t b, int32_t v) {
  touch t = {g, pc_graph_alias_root(g, v), false};
  for (uint32_t k = a + 1; k < b && !t.hit; k++)
    if (!g->nodes[k].removed && g->nodes[k].kind == PC_N_CALL)
      pc_graph_visit_args(g, &g->nodes[k], touch_visit, &t);
  return t.hit;
}

static bool eps_of(const pc_graph *g, int32_t v, double *eps) {
  const pc_gvalue *x = &g->values[v];
  if (x->kind == PC_G_DOUBLE) *eps = x->u.d;
  else if (x->kind == PC_G_INT) *eps = (double)x->u.i;
  else return false;
  return true;
}

/* The batch norm node reading the output of convolution k, when the pair
 * folds; else -1. */
static int32_t foldable_bn(const pc_graph *g, const pc_mutation *m, const readers *r,
                           uint32_t k) {
  const pc_gnode *c = &g->nodes[k];
  if (c->nargs != 10 || !c->writes[9] || g->values[c->args[6]].kind != PC_G_BOOL ||
      g->values[c->args[6]].u.b)
    return -1;
  int32_t y = c->args[9];
  const pc_gtensor *ty = tensor_of(g, y), *tw = tensor_of(g, c->args[1]);
  if (!ty || !tw || ty->dtype != PTERA_DTYPE_FLOAT || ty->store != PC_T_ACTIVATION ||
      ty->dim < 2 || tw->dim < 1 || tw->sizes[0] != ty->sizes[1] || m->producer[y] != (int32_t)k ||
      m->mutated[y] || m->is_input[y] || m->is_output[y] ||
      m->class_size[pc_graph_alias_root(g, y)] != 1 || r->count[y] != 1)
    return -1;
  int32_t cout = tw->sizes[0];
  if (!plain_const(g, m, c->args[1], -1) || !optional_const(g, m, c->args[2], cout)) return -1;
  int32_t j = r->last[y];
  if (cout <= 0 || j <= (int32_t)k) return -1;
  const pc_gnode *b = &g->nodes[j];
  double eps;
  const pc_gtensor *tz = b->nargs == 10 ? tensor_of(g, b->args[7]) : NULL;
  if (strcmp(b->op, BN_OP) != 0 || b->nargs != 10 || b->args[0] != y ||
      !optional_const(g, m, b->args[1], cout) || !optional_const(g, m, b->args[2], cout) ||
      !plain_const(g, m, b->args[3], cout) || !plain_const(g, m, b->args[4], cout) ||
      !eps_of(g, b->args[6], &eps) || !b->writes[7] || !tz || tz->dtype != PTERA_DTYPE_FLOAT ||
      tz->dim != ty->dim || memcmp(tz->sizes, ty->sizes, ty->dim * sizeof *ty->sizes) != 0 ||
      m->producer[b->args[7]] != j || m->is_input[b->args[7]])
    return -1;
  for (uint32_t i = 8; i < 10; i++)
    if (r->count[b->args[i]] != 0 || m->is_output[b->args[i]]) return -1;
  return touched_between(g, k, (uint32_t)j, b->args[7]) ? -1 : j;
}

static float at(const pc_graph *g, int32_t v, int32_t c, float dflt) {
  return is_none(g, v) ? dflt : ((const float *)g->values[v].u.t.data)[c];
}

/* A new float constant shaped like tensor value like, holding data. */
static int32_t new_const(pc_graph *g, const pc_gtensor *like, uint8_t *data) {
  int32_t id = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, like->dim, like->sizes, PC_T_ACTIVATION,
                               NULL, 0, NULL);
  if (id < 0) return -1;
  pc_gtensor *t = &g->values[id].u.t;
  t->store = PC_T_CONST;
  t->data = data;
  t->nbytes = pc_gtensor_nbytes(t);
  return id;
}

/* Rewrites convolution k to write batch norm j's output with the folded
 * weight and bias, and removes j. */
static ptera_status fold(pc_graph *g, uint32_t k, uint32_t j) {
  pc_gnode *c = &g->nodes[k];
  const pc_gnode *b = &g->nodes[j];
  const pc_gtensor *tw = &g->values[c->args[1]].u.t;
  int32_t cout = tw->sizes[0];
  size_t inner = pc_gtensor_nbytes(tw) / sizeof(float) / (size_t)(cout ? cout : 1);
  float *w = pt_arena_alloc(&g->arena, tw->nbytes ? tw->nbytes : 1, 16);
  float *bias = pt_arena_alloc(&g->arena, (size_t)cout * sizeof(float) + 1, 16);
  int32_t *args = pt_arena_array(&g->arena, c->nargs, sizeof *args, 4);
  double eps = 0;
  (void)eps_of(g, b->args[6], &eps);
  if (!w || !bias || !args) goto oom;
  const float *w0 = (const float *)tw->data;
  for (int32_t o = 0; o < cout; o++) {
    double s = (double)at(g, b->args[1], o, 1.0f) / sqrt((double)at(g, b->args[4], o, 0) + eps);
    for (size_t i = 0; i < inner; i++)
      w[(size_t)o * inner + i] = (float)((double)w0[(size_t)o * inner + i] * s);
    bias[o] = (float)(((double)at(g, c->args[2], o, 0) - (double)at(g, b->args[3], o, 0)) * s +
                      (double)at(g, b->args[2], o, 0));
  }
  pc_gtensor like_b = *tw;
  like_b.dim = 1;
  like_b.sizes[0] = cout;
  pc_gtensor like_w = *tw;
  int32_t z = b->args[7];
  int32_t nw = new_const(g, &like_w, (uint8_t *)w), nb = nw < 0 ? -1 : new_const(g, &like_b,
                                                                               (uint8_t *)bias);
  if (nb < 0) return g->err.status;
  c = &g->nodes[k];
  memcpy(args, c->args, c->nargs * sizeof *args);
  args[1] = nw;
  args[2] = nb;
  args[9] = z;
  c->args = args;
  g->nodes[j].removed = true;
  return PTERA_OK;
oom:
  return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                 "out of memory folding a batch norm into node %u of '%s'", k, g->name);
}

ptera_status pc_fold_batch_norm(pc_graph *g, pc_pass_stats *stats) {
  pc_mutation m;
  ptera_status st = pc_mutation_analyze(g, &m);
  if (st != PTERA_OK) return st;
  readers r;
  if (!readers_init(g, &r)) {
    readers_free(g, &r);
    pc_mutation_free(g, &m);
    return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory in '%s'", g->name);
  }
  uint32_t folded = 0;
  for (uint32_t k = 0; k < g->nnodes && st == PTERA_OK; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->removed || n->kind != PC_N_CALL || strcmp(n->op, CONV_OP) != 0) continue;
    int32_t j = foldable_bn(g, &m, &r, k);
    if (j < 0) continue;
    st = fold(g, k, (uint32_t)j);
    if (st == PTERA_OK) folded++;
  }
  readers_free(g, &r);
  pc_mutation_free(g, &m);
  if (stats) stats->bn_folded += folded;
  return st;
}

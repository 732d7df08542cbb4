/* Linear layers for the target op set (passes.h). PyTorch's linear layers
 * are captured as a matrix product with a transposed operand,
 *
 *   T = t_copy(W)            (or permute_copy(W, [1, 0]), transpose_copy(W, 0, 1))
 *   y = mm(x, T)   or   y = addmm(b, x, T, beta, alpha)
 *
 * Where the op set has aten::linear.out (executorch-optimized, ptera):
 *
 *   y = mm(x, T)             ->  y = linear(x, W)
 *   y = addmm(b, x, T, 1, 1) ->  y = linear(x, W, b)      (b of rank 1)
 *
 * reads W in place instead of through a transposed copy; the transpose is
 * left for dead-code elimination (other readers keep it).
 *
 * Where it has not (executorch-portable), the products stay and the
 * transpose is settled at compile time: a constant W whose bytes are fixed
 * (inside the .pte, or in a .ptd keyed by hash) is stored transposed (T
 * becomes that constant and the transpose goes), so nothing transposes at
 * run time; a W the user may replace by name (a .ptd keyed by fqn) keeps
 * its name and is transposed at run time with permute_copy(W, [1, 0]), the
 * form ExecuTorch's exporter writes.
 *
 * Neither W nor T may be mutated anywhere, so reading W later sees the same
 * values the transpose saw. */
#include "mutation.h"
#include "passes.h"

static const pc_gtensor *tensor_of(const pc_graph *g, int32_t v) {
  return g->values[v].kind == PC_G_TENSOR ? &g->values[v].u.t : NULL;
}

static bool int_list_is(const pc_graph *g, int32_t v, int64_t a, int64_t b) {
  const pc_gvalue *x = &g->values[v];
  return x->kind == PC_G_INTS && x->u.ints.len == 2 && x->u.ints.items[0] == a &&
         x->u.ints.items[1] == b;
}

static bool int_is(const pc_graph *g, int32_t v, int64_t want) {
  const pc_gvalue *x = &g->values[v];
  return x->kind == PC_G_INT && x->u.i == want;
}

static bool scalar_is_one(const pc_graph *g, int32_t v) {
  const pc_gvalue *x = &g->values[v];
  return (x->kind == PC_G_INT && x->u.i == 1) || (x->kind == PC_G_DOUBLE && x->u.d == 1.0);
}

/* W when node k writes T = W transposed (W two-dimensional), else -1. */
static int32_t transposed_source(const pc_graph *g, int32_t k, int32_t t) {
  const pc_gnode *n = &g->nodes[k];
  if (n->removed || n->kind != PC_N_CALL || n->nargs < 2 || n->args[n->nargs - 1] != t ||
      !n->writes[n->nargs - 1])
    return -1;
  const pc_gtensor *w = tensor_of(g, n->args[0]);
  if (!w || w->dim != 2) return -1;
  bool ok = false;
  if (strcmp(n->op, "aten::t_copy.out") == 0) ok = n->nargs == 2;
  else if (strcmp(n->op, "aten::permute_copy.out") == 0)
    ok = n->nargs == 3 && int_list_is(g, n->args[1], 1, 0);
  else if (strcmp(n->op, "aten::transpose_copy.int_out") == 0)
    ok = n->nargs == 4 && ((int_is(g, n->args[1], 0) && int_is(g, n->args[2], 1)) ||
                           (int_is(g, n->args[1], 1) && int_is(g, n->args[2], 0)) ||
                           (int_is(g, n->args[1], -1) && int_is(g, n->args[2], -2)) ||
                           (int_is(g, n->args[1], -2) && int_is(g, n->args[2], -1)));
  return ok ? n->args[0] : -1;
}

/* Makes T (written only by node k, from W) the constant W^T and removes k;
 * false when T or W is not plain enough (then k stays). */
static bool pretranspose(pc_graph *g, const pc_mutation *m, int32_t k, int32_t w, int32_t t,
                         ptera_status *st) {
  const pc_gtensor *tw = tensor_of(g, w);
  pc_gtensor *tt = &g->values[t].u.t;
  if (tw->store != PC_T_CONST || (g->named_consts_replaceable && tw->fqn) || m->is_input[t] ||
      m->is_output[t] || m->class_size[pc_graph_alias_root(g, t)] != 1 ||
      tt->store != PC_T_ACTIVATION || tt->dtype != tw->dtype || tw->dim_order[0] != 0 ||
      tt->dim_order[0] != 0 || tt->sizes[0] != tw->sizes[1] || tt->sizes[1] != tw->sizes[0])
    return false;
  size_t es = ptera_dtype_size(tw->dtype), rows = (size_t)tw->sizes[0],
         cols = (size_t)tw->sizes[1];
  if (es == 0 || tw->nbytes != pc_gtensor_nbytes(tw)) return false;
  uint8_t *d = pt_arena_alloc(&g->arena, tw->nbytes ? tw->nbytes : 1, 16);
  if (!d) {
    *st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                  "out of memory transposing a %zu-byte weight in '%s'", tw->nbytes, g->name);
    return false;
  }
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++)
      memcpy(d + (c * rows + r) * es, tw->data + (r * cols + c) * es, es);
  tt->store = PC_T_CONST;
  tt->dynamism = PTERA_SHAPE_STATIC;
  tt->data = d;
  tt->nbytes = tw->nbytes;
  tt->source = tw->fqn ? tw->fqn : tw->source;
  tt->fqn = NULL;
  g->nodes[k].removed = true;
  return true;
}

/* Rewrites transpose node k (T = W^T) to permute_copy(W, [1, 0], T). */
static bool to_permute(pc_graph *g, int32_t k, int32_t w, int32_t t) {
  pc_gnode *n = &g->nodes[k];
  if (strcmp(n->op, "aten::permute_copy.out") == 0) return true;
  int32_t dims = pc_graph_ints(g, (const int64_t[]){1, 0}, 2);
  int32_t *args = pt_arena_array(&g->arena, 3, sizeof *args, 4);
  uint8_t *writes = pt_arena_alloc(&g->arena, 3, 1);
  if (dims < 0 || !args || !writes) return false;
  args[0] = w;
  args[1] = dims;
  args[2] = t;
  writes[0] = writes[1] = 0;
  writes[2] = 1;
  n->op = "aten::permute_copy.out";
  n->args = args;
  n->writes = writes;
  n->nargs = 3;
  return true;
}

static bool rewrite(pc_graph *g, int32_t k, int32_t x, int32_t w, int32_t bias, int32_t y) {
  int32_t *args = pt_arena_array(&g->arena, 4, sizeof *args, 4);
  uint8_t *writes = pt_arena_alloc(&g->arena, 4, 1);
  if (!args || !writes) return false;
  args[0] = x;
  args[1] = w;
  args[2] = bias;
  args[3] = y;
  writes[3] = 1;
  pc_gnode *n = &g->nodes[k];
  n->op = "aten::linear.out";
  n->args = args;
  n->writes = writes;
  n->nargs = 4;
  return true;
}

ptera_status pc_fuse_linear(pc_graph *g, pc_pass_stats *stats) {
  pc_mutation m;
  ptera_status st = pc_mutation_analyze(g, &m);
  if (st != PTERA_OK) return st;
  bool fuse = pc_opset_contains(g->opset, "aten::linear.out");
  uint32_t fused = 0, transposed = 0;
  for (uint32_t k = 0; k < g->nnodes && st == PTERA_OK; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->removed || n->kind != PC_N_CALL) continue;
    bool mm = strcmp(n->op, "aten::mm.out") == 0 && n->nargs == 3;
    bool addmm = strcmp(n->op, "aten::addmm.out") == 0 && n->nargs == 6;
    if (!mm && !addmm) continue;
    int32_t x = n->args[mm ? 0 : 1], t = n->args[mm ? 1 : 2], y = n->args[n->nargs - 1];
    const pc_gtensor *tx = tensor_of(g, x), *tt = tensor_of(g, t);
    if (!tx || !tt || tx->dim != 2 || tt->dim != 2 || m.mutated[t] || m.producer[t] < 0 ||
        !n->writes[n->nargs - 1])
      continue;
    int32_t p = m.producer[t], w = transposed_source(g, p, t);
    if (w < 0 || m.mutated[w]) continue;
    if (!fuse) {
      if (pretranspose(g, &m, p, w, t, &st)) transposed++;
      else if (st == PTERA_OK && tensor_of(g, w)->store == PC_T_CONST && !to_permute(g, p, w, t))
        st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory in '%s'", g->name);
      continue;
    }
    int32_t bias;
    if (mm) {
      bias = pc_graph_none(g);
      if (bias < 0) st = g->err.status;
    } else {
      bias = n->args[0];
      const pc_gtensor *tb = tensor_of(g, bias);
      if (!tb || tb->dim != 1 || !scalar_is_one(g, n->args[3]) || !scalar_is_one(g, n->args[4]))
        continue;
    }
    if (st != PTERA_OK) break;
    if (!rewrite(g, (int32_t)k, x, w, bias, y)) {
      st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory fusing '%s'",
                   g->name);
      break;
    }
    fused++;
  }
  pc_mutation_free(g, &m);
  if (stats) {
    stats->fused_nodes += fused;
    stats->transposed_constants += transposed;
  }
  return st;
}

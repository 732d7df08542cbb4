/* Linear fusion (passes.h): a matrix product with a transposed operand,
 *
 *   T = t_copy(W)            (or permute_copy(W, [1, 0]), transpose_copy(W, 0, 1))
 *   y = mm(x, T)             ->  y = linear(x, W)
 *   y = addmm(b, x, T, 1, 1) ->  y = linear(x, W, b)      (b of rank 1)
 *
 * reads W in place instead of through a transposed copy, which PyTorch's
 * linear layers always produce when captured. The transpose is left for
 * dead-code elimination (other readers keep it). Neither W nor T may be
 * mutated anywhere, so reading W later sees the same values the transpose
 * saw. */
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
  uint32_t fused = 0;
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
    int32_t w = transposed_source(g, m.producer[t], t);
    if (w < 0 || m.mutated[w]) continue;
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
  if (stats) stats->fused_nodes += fused;
  return st;
}

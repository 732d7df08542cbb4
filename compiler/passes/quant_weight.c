/* Weight-only quantization (passes.h): each linear layer's constant float
 * weight W becomes integers and scales (quant.h's formulas) that a
 * quantized_decomposed::dequantize_per_channel call turns back into floats
 * right before the layer, on the CPU:
 *
 *   int8:  y = mm(x, W)  ->  Wd = dequantize_per_channel(Wq, s, None, axis, -127, 127, Char)
 *                             y = mm(x, Wd)
 *          (Wq keeps W's layout; axis is W's output-channel dim: 1 for mm / addmm, 0 for linear)
 *   int4:  G  = dequantize_per_channel(Wq [oc*ic/gs, gs], s [oc*ic/gs], None, 0, -8, 7, Char)
 *          Wd = view_copy(G, [oc, ic])   (+ permute_copy(Wd, [1, 0]) for mm / addmm)
 *
 * One group of gs inputs is one row of Wq, so dequantize_per_channel over
 * axis 0 applies its scale. The 4-bit values are stored one per int8 byte:
 * the dequantize ops ExecuTorch's quantized library registers take int8
 * tensors (no packed 4-bit dtype), so the file holds a quarter of the fp32
 * bytes, not an eighth. A weight read by several layers is dequantized
 * once, before its first reader. The new calls go right before the layer
 * that first reads them, so nodes are renumbered: run it after the other
 * passes, like the lowering to a backend. */
#include "diag.h"
#include "passes.h"
#include "quant.h"
#include "quant_scope.h"

static ptera_status oom(pc_graph *g) {
  if (g->err.status != PTERA_OK) return g->err.status;
  return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory in '%s'", g->name);
}


/* A new activation of the given shape, written by a call. */
static int32_t act(pc_graph *g, int32_t d0, int32_t d1) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, (const int32_t[]){d0, d1}, PC_T_ACTIVATION, NULL, 0,
                         NULL);
}

/* Appends the calls that dequantize layer l's weight; returns the float
 * weight they write (l.w's shape), or -1. */
static int32_t dequantized(pc_graph *g, const pc_linear *l, uint32_t bits, uint32_t gs) {
  const pc_gtensor *t = &g->values[l->w].u.t;
  const char *fqn = t->fqn;
  const int32_t s0 = t->sizes[0], s1 = t->sizes[1];
  size_t n = (size_t)l->oc * l->ic, ns = bits == 4 ? n / gs : l->oc;
  int8_t *q = pt_alloc(g->allocator, n ? 2 * n : 1, 16);
  float *s = pt_alloc(g->allocator, (ns ? ns : 1) * sizeof *s, 16);
  int32_t out = -1;
  if (!q || !s) goto done;
  const float *w = (const float *)t->data;
  int8_t *stored = q;
  if (bits == 4) {
    pc_q4_group(w, l->transposed, l->oc, l->ic, gs, q, s);
  } else {
    pc_q8_channel(w, l->transposed, l->oc, l->ic, q, s);
    if (l->transposed) { /* back to W's [ic, oc] layout */
      stored = q + n;
      for (uint32_t o = 0; o < l->oc; o++)
        for (uint32_t k = 0; k < l->ic; k++) stored[(size_t)k * l->oc + o] = q[(size_t)o * l->ic + k];
    }
  }
  int32_t qs[2] = {s0, s1};
  if (bits == 4) qs[0] = (int32_t)ns, qs[1] = (int32_t)gs;
  int32_t wq = pc_graph_tensor(g, PTERA_DTYPE_CHAR, 2, qs, PC_T_CONST, stored, n, fqn);
  int32_t sv = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, (const int32_t[]){(int32_t)ns}, PC_T_CONST, s,
                               ns * sizeof *s, NULL);
  int32_t none = pc_graph_none(g), axis = pc_graph_int(g, bits == 4 || !l->transposed ? 0 : 1);
  int32_t lo = pc_graph_int(g, bits == 4 ? -8 : -127), hi = pc_graph_int(g, bits == 4 ? 7 : 127);
  int32_t dt = pc_graph_int(g, PTERA_DTYPE_CHAR), d = act(g, qs[0], qs[1]);
  if (wq < 0 || sv < 0 || none < 0 || axis < 0 || lo < 0 || hi < 0 || dt < 0 || d < 0) goto done;
  static const uint8_t wr[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
  if (pc_graph_call(g, "quantized_decomposed::dequantize_per_channel.out",
                    (const int32_t[]){wq, sv, none, axis, lo, hi, dt, none, d}, wr, 9) < 0)
    goto done;
  if (bits == 4) {
    int32_t shape = pc_graph_ints(g, (const int64_t[]){l->oc, l->ic}, 2);
    int32_t v = act(g, (int32_t)l->oc, (int32_t)l->ic);
    if (shape < 0 || v < 0 ||
        pc_graph_call(g, "aten::view_copy.out", (const int32_t[]){d, shape, v}, wr + 6, 3) < 0)
      goto done;
    d = v;
    if (l->transposed) {
      int32_t perm = pc_graph_ints(g, (const int64_t[]){1, 0}, 2), p = act(g, s0, s1);
      if (perm < 0 || p < 0 ||
          pc_graph_call(g, "aten::permute_copy.out", (const int32_t[]){d, perm, p}, wr + 6, 3) < 0)
        goto done;
      d = p;
    }
  }
  out = d;
done:
  pt_free(g->allocator, q);
  pt_free(g->allocator, s);
  return out;
}

/* Whether layer k's weight is quantized (pc_q_layer_check); for int4, a
 * group size that does not divide the inputs fails naming the node. */
static ptera_status wanted(pc_graph *g, uint32_t k, const pc_linear *l, uint32_t bits, uint32_t gs,
                           bool *yes) {
  const pc_gnode *n = &g->nodes[k];
  ptera_status st = pc_q_layer_check(g, k, l, yes);
  if (st != PTERA_OK || !*yes) return st;
  char buf[32];
  const char *wn = pc_q_tensor_name(g, l->w, buf, sizeof buf);
  if (bits == 4 && l->ic % gs)
    return pt_fail(&g->err, PTERA_NOT_SUPPORTED,
                   "node %u (%s, weight '%s'): group size %u does not divide its %u input features; "
                   "give a --group-size that does, or quantize it int8-weight", k, n->op, wn, gs, l->ic);
  return PTERA_OK;
}

ptera_status pc_quantize_weights(pc_graph *g, uint32_t bits, uint32_t group_size, pc_pass_stats *stats) {
  if ((bits != 4 && bits != 8) || (bits == 4 && group_size == 0))
    return pt_fail(&g->err, PTERA_INVALID_ARGUMENT, "weight-only quantization to %u bits, group size %u",
                   bits, group_size);
  uint32_t n0 = g->nnodes, nv0 = g->nvalues, quantized = 0;
  /* per original node: the first appended call before it and how many; per
   * original value: its dequantized float copy, or -1 */
  int32_t *first = pt_alloc(g->allocator, (size_t)(n0 ? n0 : 1) * 2 * sizeof *first, 8);
  int32_t *copy = pt_alloc(g->allocator, (size_t)(nv0 ? nv0 : 1) * sizeof *copy, 8);
  ptera_status st = first && copy ? PTERA_OK : oom(g);
  int32_t *count = first ? first + n0 : NULL;
  if (copy) memset(copy, 0xff, (size_t)nv0 * sizeof *copy);
  for (uint32_t k = 0; k < n0 && st == PTERA_OK; k++) {
    first[k] = (int32_t)g->nnodes;
    count[k] = 0;
    pc_linear l;
    bool yes = false;
    if (!pc_linear_of(g, &g->nodes[k], &l) || !pc_qscope_in(g->qscope, &g->nodes[k])) continue;
    st = wanted(g, k, &l, bits, group_size, &yes);
    if (st != PTERA_OK || !yes) continue;
    if (copy[l.w] < 0) {
      copy[l.w] = dequantized(g, &l, bits, group_size);
      if (copy[l.w] < 0) st = oom(g);
      count[k] = (int32_t)g->nnodes - first[k];
    }
    if (st == PTERA_OK) {
      pc_gnode *n = &g->nodes[k]; /* after the appends: g->nodes may have moved */
      n->args[strcmp(n->op, "aten::linear.out") == 0 ? 1 : n->nargs == 6 ? 2 : 1] = copy[l.w];
      quantized++;
    }
  }
  pc_gnode *nodes = NULL;
  if (st == PTERA_OK && g->nnodes > n0) {
    nodes = pt_calloc(g->allocator, g->nnodes, sizeof *nodes, 0);
    if (!nodes) st = oom(g);
  }
  if (nodes) {
    uint32_t at = 0;
    for (uint32_t k = 0; k < n0; k++) {
      for (int32_t i = 0; i < count[k]; i++) nodes[at++] = g->nodes[first[k] + i];
      nodes[at++] = g->nodes[k];
    }
    pt_free(g->allocator, g->nodes);
    g->nodes = nodes;
    g->nodes_cap = g->nnodes = at;
  }
  if (st == PTERA_OK && stats) stats->quantized_weights += quantized;
  pt_free(g->allocator, first);
  pt_free(g->allocator, copy);
  return st;
}

/* NCHW-resident values (decided at init, after the prepare steps chose each
 * convolution's route): a float value passed between convolutions that run
 * the NCHW route (node_dwconv2d.c) stays in the NCHW layout, so the layout
 * copies around those convolutions drop out. A value qualifies when it is
 * an internal fp32 rank-4 value and every node that writes or reads it
 * either is such a convolution (reading it as its input, with symmetric
 * padding) or an elementwise node of one shape whose float operands all
 * qualify (the layout does not change what they compute), an average or
 * max pooling whose input and output both qualify (node_pool.c pools the
 * planes), or a GlobalAvgPooling2d reading it (its output is the same in
 * either layout), or it is the output of a StaticTranspose from NCHW to
 * NHWC (its bytes are then the input's). Shapes stay NHWC in the bookkeeping; only the bytes are in
 * NCHW order. */
#include "xnnpack/xnn.h"

static bool nchw_conv(const px_graph *g, uint32_t i) {
  const pf_xnn_node *n = &g->g.nodes[i];
  return (n->kind == PF_XNN_CONV2D || n->kind == PF_XNN_DEPTHWISE_CONV2D) && px_conv_runs_nchw(g, i);
}

/* Elementwise kinds whose operands (all one shape) may be in either layout. */
static bool elementwise(unsigned kind) {
  switch (kind) {
    case PF_XNN_ADD: case PF_XNN_SUBTRACT: case PF_XNN_MULTIPLY: case PF_XNN_DIV: case PF_XNN_MINIMUM:
    case PF_XNN_MAXIMUM: case PF_XNN_CLAMP: case PF_XNN_SIGMOID: case PF_XNN_FLOOR: case PF_XNN_CEILING:
    case PF_XNN_SQRT: case PF_XNN_RSQRT: case PF_XNN_NEGATE: case PF_XNN_SQUARE: case PF_XNN_ABS:
    case PF_XNN_HARDSWISH: case PF_XNN_ELU: case PF_XNN_LEAKY_RELU: case PF_XNN_LOG: case PF_XNN_GELU:
    case PF_XNN_TANH: case PF_XNN_EXP: case PF_XNN_SIN: case PF_XNN_COS: return true;
    default: return false;
  }
}

static bool candidate(const px_value *v) {
  return !v->is_const && !v->def->flags && v->dt == PF_XNN_DT_FP32 && v->ndims == 4;
}

static bool same_dims(const px_value *a, const px_value *b) {
  return a->ndims == b->ndims && !memcmp(a->dims, b->dims, a->ndims * sizeof a->dims[0]);
}

/* A StaticTranspose NCHW -> NHWC of fp32 (perm 0, 2, 3, 1): an output
 * held NCHW-resident is its input's bytes (px_transpose_run aliases them),
 * as when a graph's NCHW input feeds its first convolution. */
bool px_to_nhwc_transpose(const px_graph *g, const pf_xnn_node *n) {
  static const uint32_t perm[4] = {0, 2, 3, 1};
  return n->kind == PF_XNN_STATIC_TRANSPOSE && n->nin == 1 && n->n0 == 4 && !memcmp(n->v0, perm, sizeof perm) &&
         g->v[n->in[0]].dt == PF_XNN_DT_FP32 && g->v[n->in[0]].ndims == 4;
}

/* Whether node i allows operand k (value v) to be NCHW-resident, given the
 * current marks (elementwise: all operands marked and of one shape). */
static bool allows(const px_graph *g, uint32_t i, unsigned k) {
  const pf_xnn_node *n = &g->g.nodes[i];
  if (nchw_conv(g, i)) return k == n->nin || (k == 0 && n->p[0] == n->p[2] && n->p[1] == n->p[3]);
  if (px_to_nhwc_transpose(g, n)) return k == 1; /* its output; it reads its input as it is */
  if (n->kind == PF_XNN_GLOBAL_AVG_POOL) return k == 0;
  if (n->kind == PF_XNN_MAX_POOL || n->kind == PF_XNN_AVG_POOL)
    return k <= 1 && g->v[n->in[0]].nchw && g->v[n->out[0]].nchw;
  if (!elementwise(n->kind)) return false;
  const px_value *o = &g->v[n->out[0]];
  if (!o->nchw) return false;
  for (unsigned j = 0; j < n->nin; j++) {
    const px_value *x = &g->v[n->in[j]];
    if (!x->nchw || !same_dims(x, o)) return false;
  }
  return true;
}

void px_plan_routes(px_graph *g) {
  g->nchw_pref = false;
  for (uint32_t i = 0; i < g->g.nnodes && !g->nchw_pref; i++) {
    const pf_xnn_node *n = &g->g.nodes[i];
    if (g->v[n->in[0]].dt != PF_XNN_DT_FP32) continue;
    g->nchw_pref = n->kind == PF_XNN_DEPTHWISE_CONV2D || (n->kind == PF_XNN_CONV2D && px_conv_nchw_wins(g, n));
  }
}

void px_plan_residency(px_graph *g) {
  const pf_xnn_graph *x = &g->g;
  bool any = false;
  for (uint32_t i = 0; i < x->nvalues; i++) g->v[i].nchw = candidate(&g->v[i]);
  for (uint32_t i = 0; i < x->nnodes && !any; i++) any = nchw_conv(g, i);
  bool changed = any;
  if (!any)
    for (uint32_t i = 0; i < x->nvalues; i++) g->v[i].nchw = false;
  while (changed) { /* unmark until every reader and writer of a marked value allows it */
    changed = false;
    for (uint32_t i = 0; i < x->nnodes; i++) {
      const pf_xnn_node *n = &x->nodes[i];
      for (unsigned k = 0; k < (unsigned)n->nin + n->nout; k++) {
        uint32_t id = k < n->nin ? n->in[k] : n->out[k - n->nin];
        if (id == PF_XNN_NONE || !g->v[id].nchw || allows(g, i, k)) continue;
        g->v[id].nchw = false;
        changed = true;
      }
    }
  }
}

ptera_status px_check_residency(px_graph *g, const pf_xnn_node *n) {
  if (!elementwise(n->kind) || !g->v[n->out[0]].nchw) return PTERA_OK;
  const px_value *o = &g->v[n->out[0]];
  for (unsigned j = 0; j < n->nin; j++)
    if (!same_dims(&g->v[n->in[j]], o))
      return px_fail(g, PTERA_NOT_SUPPORTED,
                     "input %u's shape differs from the output's at these input shapes; this node was planned "
                     "for one shape (its operands are kept channels-first between convolutions)",
                     j + 1);
  return PTERA_OK;
}

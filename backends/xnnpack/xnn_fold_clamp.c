/* Clamp folded into the node before it (init, before sizing): when a Clamp
 * reads an internal fp32 value that only it reads, written by a float
 * FullyConnected or convolution (which clamp their outputs to
 * [out_min, out_max] anyway), that node takes the intersection of both
 * ranges and the Clamp becomes a Copy, which aliases the value (or copies
 * it to an external output). Same results: clamping twice is clamping once
 * to the intersection. */
#include "xnnpack/xnn.h"

static bool folds_into(const px_graph *g, const pf_xnn_node *p) {
  bool fc = p->kind == PF_XNN_FULLY_CONNECTED, conv = p->kind == PF_XNN_CONV2D || p->kind == PF_XNN_DEPTHWISE_CONV2D;
  uint8_t in = g->v[p->in[0]].dt;
  return (fc && (in == PF_XNN_DT_FP32 || in == PF_XNN_DT_QDINT8)) || (conv && in == PF_XNN_DT_FP32);
}

void px_fold_clamps(px_graph *g) {
  pf_xnn_graph *x = &g->g;
  for (uint32_t i = 0; i < x->nnodes; i++) {
    pf_xnn_node *c = &x->nodes[i];
    if (c->kind != PF_XNN_CLAMP) continue;
    uint32_t vi = c->in[0];
    const px_value *v = &g->v[vi];
    if (v->is_const || v->def->flags || v->dt != PF_XNN_DT_FP32 || g->v[c->out[0]].dt != PF_XNN_DT_FP32) continue;
    pf_xnn_node *prod = NULL;
    size_t readers = 0;
    for (uint32_t j = 0; j < x->nnodes; j++) {
      const pf_xnn_node *n = &x->nodes[j];
      for (unsigned k = 0; k < n->nin; k++) readers += n->in[k] == vi;
      for (unsigned k = 0; k < n->nout; k++)
        if (n->out[k] == vi && j < i) prod = &x->nodes[j];
    }
    if (!prod || readers != 1 || prod->nout != 1 || !folds_into(g, prod)) continue;
    if (c->out_min > prod->out_max || c->out_max < prod->out_min) continue; /* disjoint: not one clamp */
    if (c->out_min > prod->out_min) prod->out_min = c->out_min;
    if (c->out_max < prod->out_max) prod->out_max = c->out_max;
    c->kind = PF_XNN_COPY;
  }
}

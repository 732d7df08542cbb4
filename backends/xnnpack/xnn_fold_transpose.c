/* StaticTranspose folded into BatchMatrixMultiply (init, before sizing).
 *
 *   x --StaticTranspose(perm)--> t --BMM(a, t)--> y
 *   becomes
 *   x ..........................--BMM(a, x through perm)--> y
 *
 * when t is an internal fp32 value that only BMM nodes read, each as its
 * second input: BMM already reads B through strides, and a permutation of
 * x is x with permuted strides, so the copy (a decoder step's K cache,
 * transposed for q·K^T on every step) goes. The transpose node still
 * propagates t's shape but writes nothing. Values are written once per
 * execution and only by their producer, so x holds the same bytes when the
 * BMM reads it. */
#include "xnnpack/xnn.h"

static bool only_bmm_b(const pf_xnn_graph *x, uint32_t vi) {
  size_t readers = 0;
  for (uint32_t j = 0; j < x->nnodes; j++) {
    const pf_xnn_node *n = &x->nodes[j];
    for (unsigned k = 0; k < n->nin; k++) {
      if (n->in[k] != vi) continue;
      if (n->kind != PF_XNN_BMM || k != 1) return false;
      readers++;
    }
  }
  return readers > 0;
}

void px_fold_transposes(px_graph *g) {
  const pf_xnn_graph *x = &g->g;
  for (uint32_t i = 0; i < x->nnodes; i++) {
    const pf_xnn_node *t = &x->nodes[i];
    if (t->kind != PF_XNN_STATIC_TRANSPOSE || t->nin != 1 || t->nout != 1) continue;
    px_value *in = &g->v[t->in[0]], *out = &g->v[t->out[0]];
    if (in->dt != PF_XNN_DT_FP32 || out->dt != PF_XNN_DT_FP32 || out->is_const || out->def->flags) continue;
    if (!only_bmm_b(x, t->out[0])) continue;
    out->view = t;
  }
}

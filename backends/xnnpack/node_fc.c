/* FullyConnected, fp32: input [..., ic] -> output [..., oc], y = x W^T + b
 * (W [oc, ic]; flag TRANSPOSE_WEIGHTS: W [ic, oc]), then clamp. */
#include "xnnpack/xnn.h"

ptera_status px_fc_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  px_value *o = &g->v[n->out[0]];
  if (w->ndims != 2) return px_fail(g, PTERA_INVALID_PROGRAM, "filter has rank %u, not 2", (unsigned)w->ndims);
  if (x->ndims == 0) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank 0");
  if (!w->is_const || (b && !b->is_const)) return px_fail(g, PTERA_NOT_IMPLEMENTED, "filter and bias must be constants");
  bool tw = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  size_t ic = tw ? w->dims[0] : w->dims[1], oc = tw ? w->dims[1] : w->dims[0];
  ptera_status st = PTERA_OK;
  if (x->dt != PF_XNN_DT_FP32) {
    st = px_fc_quant_check(g, n, oc);
  } else {
    st = px_want_dt(g, w, PF_XNN_DT_FP32, "filter");
    if (st == PTERA_OK && b) st = px_want_dt(g, b, PF_XNN_DT_FP32, "bias");
    if (st == PTERA_OK) st = px_want_dt(g, o, PF_XNN_DT_FP32, "output");
  }
  if (st != PTERA_OK) return st;
  if (x->dims[x->ndims - 1] != ic)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "input has %zu features, the filter %zu", x->dims[x->ndims - 1], ic);
  if (b && px_numel(b) != oc)
    return px_fail(g, PTERA_INVALID_PROGRAM, "bias has %zu elements for %zu outputs", px_numel(b), oc);
  size_t dims[PF_XNN_MAX_DIMS];
  memcpy(dims, x->dims, sizeof dims);
  dims[x->ndims - 1] = oc;
  return px_set_shape(g, o, dims, x->ndims);
}

void px_fc_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]], *o = &g->v[n->out[0]];
  if (x->dt != PF_XNN_DT_FP32) {
    px_fc_quant_run(g, n);
    return;
  }
  bool tw = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  size_t ic = x->dims[x->ndims - 1], oc = o->dims[o->ndims - 1];
  size_t M = ic ? px_numel(x) / ic : px_numel(o) / (oc ? oc : 1);
  const float *bias = n->in[2] == PF_XNN_NONE ? NULL : g->v[n->in[2]].data;
  px_gemm_f32(M, oc, ic, x->data, w->data, tw ? 1 : ic, tw ? oc : 1, bias, o->data, n->out_min, n->out_max);
}

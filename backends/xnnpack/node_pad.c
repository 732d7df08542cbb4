/* StaticConstantPad: pre/post paddings per dim, filled with padding_value
 * (fp32). */
#include "xnnpack/xnn.h"

ptera_status px_pad_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st != PTERA_OK) return st;
  if (n->n0 != x->ndims)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "paddings have %u entries for a rank-%u input", (unsigned)n->n0,
                   (unsigned)x->ndims);
  size_t dims[PF_XNN_MAX_DIMS];
  for (unsigned d = 0; d < n->n0; d++) {
    dims[d] = x->dims[d] + n->v0[d] + n->v1[d];
    if (dims[d] < x->dims[d] || dims[d] > ((size_t)1 << 40))
      return px_fail(g, PTERA_INVALID_ARGUMENT, "padded dim %u is too large", d);
  }
  return px_set_shape(g, o, dims, n->n0);
}

void px_pad_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  unsigned r = o->ndims;
  size_t total = px_numel(o);
  float *y = o->data;
  const float *in = x->data;
  size_t idx[PF_XNN_MAX_DIMS] = {0};
  for (size_t k = 0; k < total; k++) {
    size_t off = 0;
    bool inside = true;
    for (unsigned d = 0; d < r; d++) {
      if (idx[d] < n->v0[d] || idx[d] - n->v0[d] >= x->dims[d]) {
        inside = false;
        break;
      }
      off = off * x->dims[d] + (idx[d] - n->v0[d]);
    }
    y[k] = inside ? in[off] : n->f;
    for (unsigned d = r; d-- > 0;) {
      if (++idx[d] < o->dims[d]) break;
      idx[d] = 0;
    }
  }
}

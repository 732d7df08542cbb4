/* Softmax over the innermost dimension (fp32), max-subtracted. */
#include <math.h>

#include "xnnpack/xnn.h"

ptera_status px_softmax_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st == PTERA_OK && x->ndims == 0) st = px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank 0");
  return st == PTERA_OK ? px_same_shape(g, o, x) : st;
}

void px_softmax_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]];
  size_t c = xv->dims[xv->ndims - 1], total = px_numel(xv);
  if (c == 0) return;
  const float *x = xv->data;
  float *y = g->v[n->out[0]].data;
  for (size_t r = 0; r < total / c; r++, x += c, y += c) {
    float mx = x[0];
    for (size_t i = 1; i < c; i++) mx = x[i] > mx ? x[i] : mx;
    float sum = 0.0f;
    for (size_t i = 0; i < c; i++) sum += (y[i] = expf(x[i] - mx));
    float inv = 1.0f / sum;
    for (size_t i = 0; i < c; i++) y[i] *= inv;
  }
}

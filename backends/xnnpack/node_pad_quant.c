/* StaticConstantPad on per-tensor qint8/quint8: input and output share
 * datatype and parameters (as XNNPACK requires); the padding value is real,
 * stored as sat(rne(padding_value / scale) + zero_point) (docs/XNNPACK.md §8). */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_pad_quant_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_q8(g, x, "input");
  if (st == PTERA_OK) st = px_want_q8(g, o, "output");
  if (st == PTERA_OK && (o->dt != x->dt || o->def->scale != x->def->scale || o->def->zero_point != x->def->zero_point))
    st = px_fail(g, PTERA_NOT_IMPLEMENTED, "input and output need one datatype and the same quantization parameters");
  if (st != PTERA_OK) return st;
  if (n->n0 != x->ndims || n->n1 != x->ndims)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "paddings have %u and %u entries for a rank-%u input", (unsigned)n->n0,
                   (unsigned)n->n1, (unsigned)x->ndims);
  size_t dims[PF_XNN_MAX_DIMS];
  for (unsigned d = 0; d < n->n0; d++) {
    dims[d] = x->dims[d] + n->v0[d] + n->v1[d];
    if (dims[d] < x->dims[d] || dims[d] > ((size_t)1 << 40))
      return px_fail(g, PTERA_INVALID_ARGUMENT, "padded dim %u is too large", d);
  }
  return px_set_shape(g, o, dims, n->n0);
}

void px_pad_quant_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  float lo = (float)px_qmin(o->dt), hi = (float)px_qmax(o->dt), v = n->f / o->def->scale;
  uint8_t fill;
  px_qstore(o->dt, &fill, 0, px_clampf(nearbyintf(v) + (float)o->def->zero_point, lo, hi));
  const uint8_t *in = x->data;
  uint8_t *y = o->data;
  unsigned r = o->ndims;
  size_t total = px_numel(o), idx[PF_XNN_MAX_DIMS] = {0};
  for (size_t k = 0; k < total; k++) {
    size_t off = 0;
    bool inside = true;
    for (unsigned d = 0; d < r && inside; d++) {
      inside = idx[d] >= n->v0[d] && idx[d] - n->v0[d] < x->dims[d];
      off = off * x->dims[d] + (idx[d] - n->v0[d]);
    }
    y[k] = inside ? in[off] : fill;
    for (unsigned d = r; d-- > 0;) {
      if (++idx[d] < o->dims[d]) break;
      idx[d] = 0;
    }
  }
}

/* Add, Subtract, Multiply, Minimum and Maximum on per-tensor qint8/quint8
 * (all three values one datatype) with NumPy broadcasting (docs/XNNPACK.md §8):
 * computed on real values in fp32, clamped (not Minimum/Maximum),
 * requantized:
 *   y = clamp((sa*(qa - za)) op (sb*(qb - zb)), output_min, output_max)
 *   q = sat(rne(y / so) + zo) */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_binary_quant_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *b = &g->v[n->in[1]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_q8(g, a, "input 1");
  if (st == PTERA_OK) st = px_want_q8(g, b, "input 2");
  if (st == PTERA_OK) st = px_want_q8(g, o, "output");
  if (st == PTERA_OK && (b->dt != a->dt || o->dt != a->dt))
    st = px_fail(g, PTERA_NOT_IMPLEMENTED, "inputs and output must share one quantized datatype");
  if (st != PTERA_OK) return st;
  unsigned r = a->ndims > b->ndims ? a->ndims : b->ndims;
  size_t dims[PF_XNN_MAX_DIMS];
  for (unsigned i = 0; i < r; i++) {
    size_t da = i + a->ndims >= r ? a->dims[i + a->ndims - r] : 1;
    size_t db = i + b->ndims >= r ? b->dims[i + b->ndims - r] : 1;
    if (da != db && da != 1 && db != 1)
      return px_fail(g, PTERA_INVALID_ARGUMENT, "shapes do not broadcast: dim %u is %zu and %zu", i, da, db);
    dims[i] = da == 1 ? db : da;
  }
  return px_set_shape(g, o, dims, r);
}

void px_binary_quant_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *b = &g->v[n->in[1]], *o = &g->v[n->out[0]];
  unsigned r = o->ndims;
  size_t sa[PF_XNN_MAX_DIMS], sb[PF_XNN_MAX_DIMS], ea = 1, eb = 1;
  for (unsigned i = r; i-- > 0;) { /* element strides, 0 along broadcast dims */
    size_t da = i + a->ndims >= r ? a->dims[i + a->ndims - r] : 1;
    size_t db = i + b->ndims >= r ? b->dims[i + b->ndims - r] : 1;
    sa[i] = da == 1 ? 0 : ea;
    sb[i] = db == 1 ? 0 : eb;
    ea *= da;
    eb *= db;
  }
  float fa = a->def->scale, fb = b->def->scale, so = o->def->scale;
  int32_t za = a->def->zero_point, zb = b->def->zero_point, zo = o->def->zero_point;
  float lo = (float)px_qmin(o->dt), hi = (float)px_qmax(o->dt);
  size_t total = px_numel(o);
  for (size_t e = 0; e < total; e++) {
    size_t rem = e, ia = 0, ib = 0;
    for (unsigned d = r; d-- > 0;) {
      size_t i = rem % o->dims[d];
      rem /= o->dims[d];
      ia += i * sa[d];
      ib += i * sb[d];
    }
    float x = fa * (float)(px_qload(a->dt, a->data, ia) - za), y = fb * (float)(px_qload(b->dt, b->data, ib) - zb);
    float v;
    switch (n->kind) {
      case PF_XNN_ADD: v = px_clampf(x + y, n->out_min, n->out_max); break;
      case PF_XNN_SUBTRACT: v = px_clampf(x - y, n->out_min, n->out_max); break;
      case PF_XNN_MULTIPLY: v = px_clampf(x * y, n->out_min, n->out_max); break;
      case PF_XNN_MINIMUM: v = x < y ? x : y; break;
      default: v = x > y ? x : y; /* Maximum */
    }
    px_qstore(o->dt, o->data, e, px_clampf(nearbyintf(v / so) + (float)zo, lo, hi));
  }
}

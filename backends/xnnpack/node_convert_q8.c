/* Convert between per-tensor qint8/quint8 values (requantization), the
 * spec's dequantize then quantize (docs/XNNPACK.md §8), in fp32:
 *   y = float(q - zx) * sx;  q' = sat(rne(y * (1/so)) + zo)
 * Also the entry of every quantized Convert (xnn_quant.h). */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_convert_quant_reshape(px_graph *g, const pf_xnn_node *n) {
  return g->v[n->out[0]].dt == PF_XNN_DT_QDINT8 ? px_convert_qd8_reshape(g, n) : px_convert_q8_reshape(g, n);
}

void px_convert_quant_run(px_graph *g, const pf_xnn_node *n) {
  if (g->v[n->out[0]].dt == PF_XNN_DT_QDINT8) px_convert_qd8_run(g, n);
  else px_convert_q8_run(g, n);
}

ptera_status px_convert_q8_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_q8(g, x, "input");
  if (st == PTERA_OK) st = px_want_q8(g, o, "output");
  if (st != PTERA_OK) return st;
  return px_same_shape(g, o, x);
}

void px_convert_q8_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  float sx = xv->def->scale, inv = 1.0f / o->def->scale, lo = (float)px_qmin(o->dt), hi = (float)px_qmax(o->dt);
  int32_t zx = xv->def->zero_point, zo = o->def->zero_point, qlo = px_qmin(xv->dt);
  uint8_t lut[256];
  for (int32_t q = qlo; q <= px_qmax(xv->dt); q++)
    px_qstore(o->dt, &lut[q - qlo], 0, px_clampf(nearbyintf((float)(q - zx) * sx * inv) + (float)zo, lo, hi));
  const uint8_t *x = xv->data;
  uint8_t *y = o->data;
  size_t total = px_numel(xv);
  for (size_t i = 0; i < total; i++) y[i] = lut[(uint8_t)(px_qload(xv->dt, x, i) - qlo)];
}

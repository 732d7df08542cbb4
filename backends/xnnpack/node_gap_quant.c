/* GlobalAvgPooling2d on per-tensor qint8/quint8 (input and output one
 * datatype): mean over the 2nd- and 3rd-innermost dims (H, W of NHWC) on
 * real values in fp32, then clamp and requantize (docs/XNNPACK.md §8):
 *   y = (sx * float(sum (xq - zx))) / (H*W)
 *   q = sat(rne(clamp(y, output_min, output_max) / so) + zo) */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_gap_quant_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_q8(g, x, "input");
  if (st == PTERA_OK) st = px_want_q8(g, o, "output");
  if (st == PTERA_OK && o->dt != x->dt)
    st = px_fail(g, PTERA_NOT_IMPLEMENTED, "output datatype %s differs from the input's %s", pf_xnn_dtype_name(o->dt),
                 pf_xnn_dtype_name(x->dt));
  if (st != PTERA_OK) return st;
  return px_gap_set_shape(g, n);
}

void px_gap_quant_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  unsigned r = xv->ndims;
  size_t C = xv->dims[r - 1], HW = xv->dims[r - 2] * xv->dims[r - 3], outer = C && HW ? px_numel(xv) / (C * HW) : 0;
  float sx = xv->def->scale, so = o->def->scale, lo = (float)px_qmin(o->dt), hi = (float)px_qmax(o->dt);
  int32_t zx = xv->def->zero_point, zo = o->def->zero_point;
  for (size_t b = 0; b < outer; b++)
    for (size_t c = 0; c < C; c++) {
      int64_t acc = 0;
      for (size_t k = 0; k < HW; k++) acc += px_qload(xv->dt, xv->data, (b * HW + k) * C + c) - zx;
      float y = px_clampf((sx * (float)acc) / (float)HW, n->out_min, n->out_max);
      px_qstore(o->dt, o->data, b * C + c, px_clampf(nearbyintf(y / so) + (float)zo, lo, hi));
    }
}

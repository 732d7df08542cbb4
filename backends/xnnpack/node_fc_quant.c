/* Statically quantized FullyConnected (docs/XNNPACK.md §6, §8.1): qint8 or quint8
 * per-tensor input and output, per-tensor (qint8/quint8) or per-channel
 * (qcint8) weights, qint32/qcint32 bias (scale sx*sw, zero point 0):
 *   acc = sum_k (xq - zx)(wq - zw) + bq                  (integer)
 *   y   = sat(rne(float(acc) * ((sx*sw[o]) / so)) + zo)  (scale in fp32)
 * clamped to output_min/max quantized with the output's parameters.
 * A qdint8 (dynamically quantized) input goes to node_fc_qd8.c. Rows of
 * qint8 x qint8/qcint8 with filter zero point 0 run on the qs8 dot micro-kernels. */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_fc_quant_check(px_graph *g, const pf_xnn_node *n, size_t oc) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]], *o = &g->v[n->out[0]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  bool pc = w->dt == PF_XNN_DT_QCINT8;
  if (x->dt == PF_XNN_DT_QDINT8) return px_fc_qd8_check(g, n, oc);
  if (!px_is_q8(x->dt) || o->dt != x->dt || (w->dt != x->dt && !(pc && x->dt == PF_XNN_DT_QINT8)) ||
      (b && b->dt != (pc ? PF_XNN_DT_QCINT32 : PF_XNN_DT_QINT32) && b->dt != PF_XNN_DT_QINT32 &&
       b->dt != PF_XNN_DT_QCINT32))
    return px_fail(g, PTERA_NOT_IMPLEMENTED, "quantized FullyConnected %s x %s -> %s is not implemented",
                   pf_xnn_dtype_name(x->dt), pf_xnn_dtype_name(w->dt), pf_xnn_dtype_name(o->dt));
  if (x->def->quant != PF_XNN_Q_PER_TENSOR || o->def->quant != PF_XNN_Q_PER_TENSOR ||
      (!pc && w->def->quant != PF_XNN_Q_PER_TENSOR) || (pc && w->nscales != oc))
    return px_fail(g, PTERA_INVALID_PROGRAM, "input/output need per-tensor parameters, the filter per-tensor or %zu per-channel scales", oc);
  int32_t zlo = x->dt == PF_XNN_DT_QINT8 ? -128 : 0, zhi = x->dt == PF_XNN_DT_QINT8 ? 127 : 255;
  int32_t zw = pc ? 0 : w->def->zero_point;
  if (x->def->zero_point < zlo || x->def->zero_point > zhi || o->def->zero_point < zlo ||
      o->def->zero_point > zhi || zw < zlo || zw > zhi)
    return px_fail(g, PTERA_INVALID_PROGRAM, "zero points must be in [%d, %d]", zlo, zhi);
  if (!(o->def->scale > 0.0f) || !(x->def->scale > 0.0f) || !isfinite(o->def->scale))
    return px_fail(g, PTERA_INVALID_PROGRAM, "quantization scales must be positive");
  for (size_t c = 0; c < (pc ? oc : 1); c++) { /* per tensor: one scale (oc is unbounded when ic is 0) */
    float s = (x->def->scale * (pc ? w->scales[c] : w->def->scale)) / o->def->scale;
    if (!(s > 0.0f && s < 256.0f))
      return px_fail(g, PTERA_INVALID_PROGRAM, "requantization scale %g of channel %zu is outside (0, 256)", (double)s, c);
  }
  return PTERA_OK;
}

void px_fc_quant_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]], *o = &g->v[n->out[0]];
  if (x->dt == PF_XNN_DT_QDINT8) {
    px_fc_qd8_run(g, n);
    return;
  }
  const int32_t *bias = n->in[2] == PF_XNN_NONE ? NULL : g->v[n->in[2]].data;
  bool tw = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS, pc = w->dt == PF_XNN_DT_QCINT8;
  size_t ic = x->dims[x->ndims - 1], oc = o->dims[o->ndims - 1];
  size_t M = ic ? px_numel(x) / ic : px_numel(o) / (oc ? oc : 1);
  int32_t zx = x->def->zero_point, zw = pc ? 0 : w->def->zero_point, zo = o->def->zero_point;
  float so = o->def->scale;
  float qlo = px_qbound(n->out_min, so, zo, o->dt), qhi = px_qbound(n->out_max, so, zo, o->dt);
  /* int8 x int8 rows with a zero filter zero point: the dot micro-kernels */
  bool dot = x->dt == PF_XNN_DT_QINT8 && w->dt != PF_XNN_DT_QUINT8 && zw == 0 && !tw;
  pk_qs8_dot4_fn dot4 = px_qs8_dot4();
  for (size_t m = 0; m < M; m++)
    for (size_t c0 = 0; c0 < oc; c0 += 4) {
      size_t nc = oc - c0 < 4 ? oc - c0 : 4;
      int64_t acc[4] = {0, 0, 0, 0}; /* int32 in XNNPACK; wider here so hostile sizes cannot overflow */
      if (dot && nc == 4) {
        for (size_t k = 0; k < ic; k += 256) {
          int32_t d[4];
          size_t kn = ic - k < 256 ? ic - k : 256;
          dot4(kn, (const int8_t *)x->data + m * ic + k, zx, (const int8_t *)w->data + c0 * ic + k, ic, d);
          for (size_t j = 0; j < 4; j++) acc[j] += d[j];
        }
      } else {
        for (size_t j = 0; j < nc; j++)
          for (size_t k = 0; k < ic; k++)
            acc[j] += (px_qload(x->dt, x->data, m * ic + k) - zx) *
                      (px_qload(w->dt, w->data, tw ? k * oc + c0 + j : (c0 + j) * ic + k) - zw);
      }
      for (size_t j = 0; j < nc; j++) {
        size_t c = c0 + j;
        float s = (x->def->scale * (pc ? w->scales[c] : w->def->scale)) / so;
        float q = nearbyintf((float)(acc[j] + (bias ? bias[c] : 0)) * s) + (float)zo;
        px_qstore(o->dt, o->data, m * oc + c, px_clampf(q, qlo, qhi));
      }
    }
}

/* Convert between fp32, fp16, bf16 and per-tensor qint8/quint8
 * (docs/XNNPACK.md §8): quantize q = sat(rne(x * (1/scale)) + zp) with 1/scale in
 * fp32; dequantize (q - zp) * scale in fp32. */
#include <math.h>

#include "xnnpack/xnn.h"

static bool supported(uint8_t dt) {
  return dt == PF_XNN_DT_FP32 || dt == PF_XNN_DT_FP16 || dt == PF_XNN_DT_BF16 || dt == PF_XNN_DT_QINT8 ||
         dt == PF_XNN_DT_QUINT8;
}

static bool is_q(uint8_t dt) { return dt == PF_XNN_DT_QINT8 || dt == PF_XNN_DT_QUINT8; }

ptera_status px_convert_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  if (!supported(x->dt) || !supported(o->dt) || (is_q(x->dt) && is_q(o->dt)) ||
      (is_q(x->dt) && x->def->quant != PF_XNN_Q_PER_TENSOR) || (is_q(o->dt) && o->def->quant != PF_XNN_Q_PER_TENSOR))
    return px_fail(g, PTERA_NOT_IMPLEMENTED, "conversion from %s to %s is not implemented", pf_xnn_dtype_name(x->dt),
                   pf_xnn_dtype_name(o->dt));
  if (is_q(o->dt) && !(o->def->scale > 0.0f && isfinite(o->def->scale)))
    return px_fail(g, PTERA_INVALID_PROGRAM, "output scale %g is not positive", (double)o->def->scale);
  return px_same_shape(g, o, x);
}

static float load(const px_value *v, size_t i) {
  switch (v->dt) {
    case PF_XNN_DT_FP32: return ((const float *)v->data)[i];
    case PF_XNN_DT_FP16: return pt_half_to_float(((const uint16_t *)v->data)[i]);
    case PF_XNN_DT_BF16: return pt_bf16_to_float(((const uint16_t *)v->data)[i]);
    case PF_XNN_DT_QINT8: return (float)(((const int8_t *)v->data)[i] - v->def->zero_point) * v->def->scale;
    default: return (float)(((const uint8_t *)v->data)[i] - v->def->zero_point) * v->def->scale;
  }
}

void px_convert_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  size_t total = px_numel(x);
  float inv = is_q(o->dt) ? 1.0f / o->def->scale : 1.0f;
  float lo = o->dt == PF_XNN_DT_QINT8 ? -128.0f : 0.0f, hi = o->dt == PF_XNN_DT_QINT8 ? 127.0f : 255.0f;
  for (size_t i = 0; i < total; i++) {
    float v = load(x, i);
    switch (o->dt) {
      case PF_XNN_DT_FP32: ((float *)o->data)[i] = v; break;
      case PF_XNN_DT_FP16: ((uint16_t *)o->data)[i] = pt_float_to_half(v); break;
      case PF_XNN_DT_BF16: ((uint16_t *)o->data)[i] = pt_float_to_bf16(v); break;
      default: {
        float q = px_clampf(nearbyintf(v * inv) + (float)o->def->zero_point, lo, hi);
        if (q != q) q = (float)o->def->zero_point;
        if (o->dt == PF_XNN_DT_QINT8) ((int8_t *)o->data)[i] = (int8_t)q;
        else ((uint8_t *)o->data)[i] = (uint8_t)q;
      }
    }
  }
}

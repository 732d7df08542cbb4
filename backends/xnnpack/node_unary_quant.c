/* Clamp, LeakyReLU, ELU, Hardswish, Sigmoid, Tanh, Negate, Abs and Square
 * on per-tensor qint8/quint8 (input and output one datatype; docs/XNNPACK.md §8):
 * on real values, then requantized, through a 256-entry table built per run:
 *   r = sx * float(q - zx)
 *   y = f(r): fp32 as the fp32 node for Clamp (to output_min/max), LeakyReLU,
 *       Hardswish, Negate, Abs, Square; Sigmoid 1/(1+exp(-r)), Tanh tanh(r),
 *       ELU alpha*expm1(r) (r <= 0) evaluated in double, then rounded to fp32
 *   q = sat(rne(y / so) + zo) */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_unary_quant_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  switch (n->kind) {
    case PF_XNN_CLAMP: case PF_XNN_LEAKY_RELU: case PF_XNN_ELU: case PF_XNN_HARDSWISH: case PF_XNN_SIGMOID:
    case PF_XNN_TANH: case PF_XNN_NEGATE: case PF_XNN_ABS: case PF_XNN_SQUARE:
      break;
    default:
      return px_fail(g, PTERA_NOT_IMPLEMENTED, "quantized %s is not implemented", pf_xnn_node_name(n->kind));
  }
  ptera_status st = px_want_q8(g, x, "input");
  if (st == PTERA_OK) st = px_want_q8(g, o, "output");
  if (st == PTERA_OK && o->dt != x->dt)
    st = px_fail(g, PTERA_NOT_IMPLEMENTED, "output datatype %s differs from the input's %s", pf_xnn_dtype_name(o->dt),
                 pf_xnn_dtype_name(x->dt));
  if (st != PTERA_OK) return st;
  return px_same_shape(g, o, x);
}

static float apply(const pf_xnn_node *n, float r) {
  switch (n->kind) {
    case PF_XNN_CLAMP: return px_clampf(r, n->out_min, n->out_max);
    case PF_XNN_LEAKY_RELU: return r > 0.0f ? r : r * n->f;
    case PF_XNN_ELU: return r > 0.0f ? r : (float)((double)n->f * expm1((double)r));
    case PF_XNN_HARDSWISH: return r * px_clampf(r + 3.0f, 0.0f, 6.0f) / 6.0f;
    case PF_XNN_SIGMOID: return (float)(1.0 / (1.0 + exp(-(double)r)));
    case PF_XNN_TANH: return (float)tanh((double)r);
    case PF_XNN_NEGATE: return -r;
    case PF_XNN_ABS: return fabsf(r);
    default: return r * r; /* Square */
  }
}

void px_unary_quant_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  float sx = xv->def->scale, so = o->def->scale, lo = (float)px_qmin(o->dt), hi = (float)px_qmax(o->dt);
  int32_t zx = xv->def->zero_point, zo = o->def->zero_point, qlo = px_qmin(xv->dt);
  uint8_t lut[256];
  for (int32_t q = qlo; q <= px_qmax(xv->dt); q++) {
    float y = apply(n, sx * (float)(q - zx));
    px_qstore(o->dt, &lut[q - qlo], 0, px_clampf(nearbyintf(y / so) + (float)zo, lo, hi));
  }
  const uint8_t *x = xv->data;
  uint8_t *out = o->data;
  size_t total = px_numel(xv);
  for (size_t i = 0; i < total; i++) out[i] = lut[(uint8_t)(px_qload(xv->dt, x, i) - qlo)];
}

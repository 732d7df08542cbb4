/* Convert fp32 -> qdint8, dynamic quantization per row (docs/XNNPACK.md §6.4):
 * each row's parameters come from its min/max (XNNPACK's asymmetric
 * formula, fp32 throughout),
 *   rmin = min(0, min), rmax = max(0, max)
 *   m    = rmin == rmax ? 1 : 255 / (rmax - rmin)
 *   zp   = rint(clamp((-128 + rmin*m) + (127 + rmax*m) > 0 ? -128 - rmin*m : 127 - rmax*m, -128, 127))
 *   q    = rint(clamp(x*m, -128 - zp, 127 - zp)) + zp     (rint: half to even)
 * and the row keeps zp and scale = 1/m (xnn_quant.h) for the consumer. */
#include <math.h>

#include "xnnpack/xnn_quant.h"

static size_t params_end(size_t numel, size_t rows) {
  return ((numel + 7) & ~(size_t)7) + rows * sizeof(px_qd8_param);
}

ptera_status px_convert_qd8_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_dt(g, x, PF_XNN_DT_FP32, "input");
  if (st != PTERA_OK) return st;
  if (o->is_const || o->def->flags)
    return px_fail(g, PTERA_INVALID_PROGRAM, "a qdint8 value must be internal, without constant data");
  st = px_same_shape(g, o, x);
  size_t rows, rowlen;
  if (st == PTERA_OK) st = px_qd8_rows(g, o, &rows, &rowlen);
  if (st != PTERA_OK) return st;
  if (rows > SIZE_MAX / 4 / sizeof(px_qd8_param))
    return px_fail(g, PTERA_INVALID_ARGUMENT, "%zu rows of dynamic quantization parameters are too many", rows);
  size_t need = params_end(px_numel(o), rows);
  if (!o->data) { /* sizing pass at init: room for the row parameters too */
    if (need > o->cap) o->cap = need;
  } else if (need > o->cap) {
    return px_fail(g, PTERA_INVALID_ARGUMENT, "%zu rows of dynamic quantization parameters exceed the stored bound",
                   rows);
  }
  return PTERA_OK;
}

/* 1.5 * 2^23: adding and subtracting it rounds a float of magnitude below
 * 2^22 to an integer in the default rounding mode (to nearest, ties even). */
#define PX_ROUND_MAGIC 12582912.0f

/* The row's parameters; *mul gets the quantization multiplier m. */
static px_qd8_param row_params(const float *x, size_t len, float *mul) {
  float lo = 0.0f, hi = 0.0f; /* min(0, row min), max(0, row max); NaNs ignored */
  for (size_t i = 0; i < len; i++) { /* comparisons, not fminf/fmaxf calls: a NaN compares false */
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  float m = lo == hi ? 1.0f : 255.0f / (hi - lo);
  float dlo = lo * m, dhi = hi * m;
  float zp = (-128.0f + dlo) + (127.0f + dhi) > 0.0f ? -128.0f - dlo : 127.0f - dhi;
  zp = fminf(fmaxf(zp, -128.0f), 127.0f);
  px_qd8_param p = {(int32_t)nearbyintf(zp), 1.0f / m};
  *mul = m;
  return p;
}

void px_convert_qd8_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  size_t rows, rowlen;
  if (px_qd8_rows(g, o, &rows, &rowlen) != PTERA_OK) return; /* checked by reshape */
  px_qd8_param *prm = px_qd8_params(o);
  const float *x = xv->data;
  int8_t *q = o->data;
  for (size_t r = 0; r < rows; r++) {
    const float *xr = x + r * rowlen;
    float m;
    prm[r] = row_params(xr, rowlen, &m);
    float zp = (float)prm[r].zero_point, vlo = -128.0f - zp, vhi = 127.0f - zp;
    for (size_t i = 0; i < rowlen; i++) {
      float v = xr[i] * m;
      v = v > vlo ? v : vlo; /* NaN -> vlo, as fmaxf */
      v = v < vhi ? v : vhi;
      v = (v + PX_ROUND_MAGIC) - PX_ROUND_MAGIC; /* nearbyintf for |v| <= 255: ties to even */
      q[r * rowlen + i] = (int8_t)(v + zp);
    }
  }
}

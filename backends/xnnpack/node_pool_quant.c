/* AvgPooling2d and MaxPooling2d on NHWC per-tensor qint8/quint8 (input and
 * output one datatype; docs/XNNPACK.md §8), window as the fp32 node
 * (node_pool.c). On real values in fp32, then clamp and requantize:
 *   avg: y = (sx * float(sum (xq - zx))) / divisor   (divisor: in-bounds count
 *        when any padding is set, else the window size)
 *   max: y = sx * float(max xq - zx)                 (padding ignored)
 *   q = sat(rne(clamp(y, output_min, output_max) / so) + zo) */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_pool_quant_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_q8(g, x, "input");
  if (st == PTERA_OK) st = px_want_q8(g, o, "output");
  if (st == PTERA_OK && o->dt != x->dt)
    st = px_fail(g, PTERA_NOT_IMPLEMENTED, "output datatype %s differs from the input's %s", pf_xnn_dtype_name(o->dt),
                 pf_xnn_dtype_name(x->dt));
  if (st != PTERA_OK) return st;
  if (x->ndims != 4) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank %u, not 4 (NHWC)", (unsigned)x->ndims);
  bool mx = n->kind == PF_XNN_MAX_POOL;
  size_t ph = n->p[4], pw = n->p[5], sh = n->p[6], sw = n->p[7];
  size_t dh = mx && n->p[8] ? n->p[8] : 1, dw = mx && n->p[9] ? n->p[9] : 1;
  for (unsigned i = 0; i < 10; i++)
    if (n->p[i] > 65536) return px_fail(g, PTERA_INVALID_PROGRAM, "pooling fields must be at most 65536");
  if (!ph || !pw || !sh || !sw) return px_fail(g, PTERA_INVALID_PROGRAM, "pooling size and stride must be 1..65536");
  size_t eh = dh * (ph - 1) + 1, ew = dw * (pw - 1) + 1;
  size_t H = x->dims[1] + n->p[0] + n->p[2], W = x->dims[2] + n->p[1] + n->p[3];
  if (H < eh || W < ew) return px_fail(g, PTERA_INVALID_ARGUMENT, "the input is smaller than the pooling window");
  size_t dims[4] = {x->dims[0], (H - eh) / sh + 1, (W - ew) / sw + 1, x->dims[3]};
  return px_set_shape(g, o, dims, 4);
}

void px_pool_quant_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  bool mx = n->kind == PF_XNN_MAX_POOL;
  size_t ph = n->p[4], pw = n->p[5], sh = n->p[6], sw = n->p[7], pt = n->p[0], pl = n->p[3];
  size_t dh = mx && n->p[8] ? n->p[8] : 1, dw = mx && n->p[9] ? n->p[9] : 1;
  if (!px_numel(o)) return; /* no outputs (the loops below would still walk the empty dims) */
  size_t N = xv->dims[0], IH = xv->dims[1], IW = xv->dims[2], C = xv->dims[3], OH = o->dims[1], OW = o->dims[2];
  bool padded = n->p[0] || n->p[1] || n->p[2] || n->p[3];
  float sx = xv->def->scale, so = o->def->scale, lo = (float)px_qmin(o->dt), hi = (float)px_qmax(o->dt);
  int32_t zx = xv->def->zero_point, zo = o->def->zero_point;
  for (size_t b = 0; b < N; b++)
    for (size_t oy = 0; oy < OH; oy++)
      for (size_t ox = 0; ox < OW; ox++)
        for (size_t c = 0; c < C; c++) {
          int32_t best = px_qmin(xv->dt);
          int64_t acc = 0;
          size_t count = 0;
          size_t ky0, ky1, kx0, kx1;
          px_pool_taps(oy, sh, dh, pt, IH, ph, &ky0, &ky1);
          px_pool_taps(ox, sw, dw, pl, IW, pw, &kx0, &kx1);
          for (size_t ky = ky0; ky < ky1; ky++) {
            size_t iy = oy * sh + ky * dh - pt;
            for (size_t kx = kx0; kx < kx1; kx++) {
              size_t ix = ox * sw + kx * dw - pl;
              int32_t v = px_qload(xv->dt, xv->data, ((b * IH + iy) * IW + ix) * C + c);
              best = v > best ? v : best;
              acc += v - zx;
              count++;
            }
          }
          float y;
          if (mx) y = sx * (float)(best - zx);
          else y = (sx * (float)acc) / (float)(padded ? (count ? count : 1) : ph * pw);
          y = px_clampf(y, n->out_min, n->out_max);
          px_qstore(o->dt, o->data, ((b * OH + oy) * OW + ox) * C + c, px_clampf(nearbyintf(y / so) + (float)zo, lo, hi));
        }
}

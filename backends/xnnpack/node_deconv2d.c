/* ConvTranspose2d on NHWC fp32 (XNNPACK.md §8): every input pixel scatters
 * x * W[g*gOC+o, ky, kx, i] to (iy*sh - pt + ky*dh, ix*sw - pl + kx*dw);
 * computed here as the equivalent gather per output pixel. */
#include "xnnpack/xnn.h"

ptera_status px_deconv2d_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_dt(g, x, PF_XNN_DT_FP32, "input");
  if (st == PTERA_OK) st = px_want_dt(g, w, PF_XNN_DT_FP32, "filter");
  if (st == PTERA_OK && b) st = px_want_dt(g, b, PF_XNN_DT_FP32, "bias");
  if (st == PTERA_OK) st = px_want_dt(g, o, PF_XNN_DT_FP32, "output");
  if (st != PTERA_OK) return st;
  for (unsigned i = 0; i <= 14; i++)
    if ((i >= 4 && i <= 12 && n->p[i] == 0) || n->p[i] > 65536)
      return px_fail(g, PTERA_INVALID_PROGRAM, "kernel, stride, dilation, channel and group fields must be 1..65536");
  if (x->ndims != 4) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank %u, not 4 (NHWC)", (unsigned)x->ndims);
  if (!w->is_const || (b && !b->is_const)) return px_fail(g, PTERA_NOT_IMPLEMENTED, "filter and bias must be constants");
  size_t groups = n->p[12], gic = n->p[10], goc = n->p[11], OC = groups * goc;
  if (x->dims[3] != groups * gic)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "input has %zu channels; groups %zu x group input channels %zu",
                   x->dims[3], groups, gic);
  size_t want_w[4] = {OC, n->p[4], n->p[5], gic};
  if (w->ndims != 4 || memcmp(w->dims, want_w, sizeof want_w))
    return px_fail(g, PTERA_INVALID_PROGRAM, "filter shape is not [%zu, %zu, %zu, %zu]", want_w[0], want_w[1],
                   want_w[2], want_w[3]);
  if (b && px_numel(b) != OC)
    return px_fail(g, PTERA_INVALID_PROGRAM, "bias has %zu elements for %zu output channels", px_numel(b), OC);
  if (x->dims[1] == 0 || x->dims[2] == 0) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has no pixels");
  size_t fh = (x->dims[1] - 1) * n->p[6] + n->p[8] * (n->p[4] - 1) + 1 + n->p[13];
  size_t fw = (x->dims[2] - 1) * n->p[7] + n->p[9] * (n->p[5] - 1) + 1 + n->p[14];
  if (fh <= (size_t)n->p[0] + n->p[2] || fw <= (size_t)n->p[1] + n->p[3])
    return px_fail(g, PTERA_INVALID_ARGUMENT, "padding removes the whole output");
  size_t dims[4] = {x->dims[0], fh - n->p[0] - n->p[2], fw - n->p[1] - n->p[3], OC};
  return px_set_shape(g, o, dims, 4);
}

void px_deconv2d_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  size_t N = xv->dims[0], IH = xv->dims[1], IW = xv->dims[2], IC = xv->dims[3];
  size_t OH = o->dims[1], OW = o->dims[2], OC = o->dims[3];
  size_t kh = n->p[4], kw = n->p[5], sh = n->p[6], sw = n->p[7], dh = n->p[8], dw = n->p[9];
  size_t gic = n->p[10], goc = n->p[11], pt = n->p[0], pl = n->p[3];
  const float *x = xv->data, *w = g->v[n->in[1]].data;
  const float *bias = n->in[2] == PF_XNN_NONE ? NULL : g->v[n->in[2]].data;
  float *y = o->data;
  for (size_t b = 0; b < N; b++)
    for (size_t oy = 0; oy < OH; oy++)
      for (size_t ox = 0; ox < OW; ox++)
        for (size_t oc = 0; oc < OC; oc++) {
          size_t grp = oc / goc;
          float acc = bias ? bias[oc] : 0.0f;
          for (size_t ky = 0; ky < kh; ky++) {
            size_t py = oy + pt; /* = iy*sh + ky*dh */
            if (py < ky * dh || (py - ky * dh) % sh) continue;
            size_t iy = (py - ky * dh) / sh;
            if (iy >= IH) continue;
            for (size_t kx = 0; kx < kw; kx++) {
              size_t px = ox + pl;
              if (px < kx * dw || (px - kx * dw) % sw) continue;
              size_t ix = (px - kx * dw) / sw;
              if (ix >= IW) continue;
              const float *in = x + ((b * IH + iy) * IW + ix) * IC + grp * gic;
              const float *wk = w + ((oc * kh + ky) * kw + kx) * gic;
              for (size_t i = 0; i < gic; i++) acc += in[i] * wk[i];
            }
          }
          y[((b * OH + oy) * OW + ox) * OC + oc] = px_clampf(acc, n->out_min, n->out_max);
        }
}

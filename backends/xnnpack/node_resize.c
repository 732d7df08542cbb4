/* StaticResizeBilinear2D on NHWC fp32: ALIGN_CORNERS, else half-pixel
 * centres (PyTorch align_corners=False). p[]: new height, new width. */
#include <math.h>

#include "xnnpack/xnn.h"

ptera_status px_resize_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st != PTERA_OK) return st;
  if (x->ndims != 4) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank %u, not 4 (NHWC)", (unsigned)x->ndims);
  if (!n->p[0] || !n->p[1] || n->p[0] > 65536 || n->p[1] > 65536)
    return px_fail(g, PTERA_INVALID_PROGRAM, "new size %ux%u must be 1..65536", (unsigned)n->p[0], (unsigned)n->p[1]);
  size_t dims[4] = {x->dims[0], n->p[0], n->p[1], x->dims[3]};
  return px_set_shape(g, o, dims, 4);
}

static void coord(size_t o, size_t in, size_t out, bool align, size_t *i0, size_t *i1, float *t) {
  float s;
  if (align) s = out > 1 ? (float)o * (float)(in - 1) / (float)(out - 1) : 0.0f;
  else s = fmaxf(((float)o + 0.5f) * ((float)in / (float)out) - 0.5f, 0.0f);
  size_t a = (size_t)s;
  if (a > in - 1) a = in - 1;
  *i0 = a;
  *i1 = a + 1 < in ? a + 1 : in - 1;
  *t = s - (float)a;
}

void px_resize_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  size_t N = xv->dims[0], IH = xv->dims[1], IW = xv->dims[2], C = xv->dims[3], OH = o->dims[1], OW = o->dims[2];
  if (!IH || !IW) return;
  bool align = n->flags & PF_XNN_FLAG_ALIGN_CORNERS;
  const float *x = xv->data;
  float *y = o->data;
  for (size_t b = 0; b < N; b++)
    for (size_t oy = 0; oy < OH; oy++) {
      size_t y0, y1;
      float ty;
      coord(oy, IH, OH, align, &y0, &y1, &ty);
      for (size_t ox = 0; ox < OW; ox++) {
        size_t x0, x1;
        float tx;
        coord(ox, IW, OW, align, &x0, &x1, &tx);
        const float *p00 = x + ((b * IH + y0) * IW + x0) * C, *p01 = x + ((b * IH + y0) * IW + x1) * C;
        const float *p10 = x + ((b * IH + y1) * IW + x0) * C, *p11 = x + ((b * IH + y1) * IW + x1) * C;
        float *q = y + ((b * OH + oy) * OW + ox) * C;
        for (size_t c = 0; c < C; c++) {
          float top = p00[c] + (p01[c] - p00[c]) * tx, bot = p10[c] + (p11[c] - p10[c]) * tx;
          q[c] = top + (bot - top) * ty;
        }
      }
    }
}

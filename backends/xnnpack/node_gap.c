/* GlobalAvgPooling2d: mean over the 2nd- and 3rd-innermost dims (H, W of
 * NHWC); KEEP_DIMS keeps them as 1. fp32, then clamp. An NCHW-resident
 * input (xnn_residency.c) is pooled plane by plane: the output, one value
 * per image and channel, has the same bytes in either layout. */
#include <math.h>

#include "cpu/pool2d.h"
#include "xnnpack/xnn.h"

ptera_status px_gap_set_shape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  if (x->ndims < 3) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank %u (at least 3)", (unsigned)x->ndims);
  size_t dims[PF_XNN_MAX_DIMS];
  unsigned r = x->ndims;
  memcpy(dims, x->dims, sizeof dims);
  if (n->flags & PF_XNN_FLAG_KEEP_DIMS) {
    dims[r - 3] = dims[r - 2] = 1;
  } else {
    dims[r - 3] = dims[r - 1];
    r -= 2;
  }
  return px_set_shape(g, o, dims, r);
}

ptera_status px_gap_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st != PTERA_OK) return st;
  return px_gap_set_shape(g, n);
}

void px_gap_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]];
  unsigned r = xv->ndims;
  size_t C = xv->dims[r - 1], HW = xv->dims[r - 2] * xv->dims[r - 3], outer = C && HW ? px_numel(xv) / (C * HW) : 0;
  const float *x = xv->data;
  float *y = g->v[n->out[0]].data;
  if (xv->nchw) {
    pk_gavgpool_f32(x, y, outer * C, HW, px_kctx(g));
    if (n->out_min != -INFINITY || n->out_max != INFINITY)
      for (size_t i = 0; i < outer * C; i++) y[i] = px_clampf(y[i], n->out_min, n->out_max);
    return;
  }
  for (size_t b = 0; b < outer; b++)
    for (size_t c = 0; c < C; c++) {
      float acc = 0.0f;
      for (size_t k = 0; k < HW; k++) acc += x[(b * HW + k) * C + c];
      y[b * C + c] = px_clampf(acc / (float)HW, n->out_min, n->out_max);
    }
}

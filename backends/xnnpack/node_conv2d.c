/* Conv2d and DepthwiseConv2d on NHWC fp32 (XNNPACK.md §7, §8). Field p[]:
 * padding t,r,b,l; kernel h,w; subsampling (stride) h,w; dilation h,w;
 * group input/output channels; groups. */
#include "xnnpack/xnn.h"

typedef struct geom {
  size_t N, IH, IW, IC, OH, OW, OC, kh, kw, sh, sw, dh, dw, pt, pl, groups, gic, goc;
} geom;

static void get_geom(const px_graph *g, const pf_xnn_node *n, geom *q) {
  const px_value *x = &g->v[n->in[0]];
  q->N = x->dims[0];
  q->IH = x->dims[1];
  q->IW = x->dims[2];
  q->IC = x->dims[3];
  q->pt = n->p[0];
  q->pl = n->p[3];
  q->kh = n->p[4];
  q->kw = n->p[5];
  q->sh = n->p[6];
  q->sw = n->p[7];
  q->dh = n->p[8];
  q->dw = n->p[9];
  q->gic = n->p[10];
  q->goc = n->p[11];
  q->groups = n->p[12];
  q->OC = q->groups * q->goc;
  if (n->kind == PF_XNN_DEPTHWISE_CONV2D) q->OC = q->groups * (q->goc / q->gic);
}

/* Output extent of one spatial dim; false when the window does not fit. */
static bool out_extent(size_t in, size_t pad, size_t k, size_t stride, size_t dil, size_t *out) {
  size_t eff = dil * (k - 1) + 1;
  if (in + pad < eff) return false;
  *out = (in + pad - eff) / stride + 1;
  return true;
}

ptera_status px_conv2d_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_dt(g, x, PF_XNN_DT_FP32, "input");
  if (st == PTERA_OK) st = px_want_dt(g, w, PF_XNN_DT_FP32, "filter");
  if (st == PTERA_OK && b) st = px_want_dt(g, b, PF_XNN_DT_FP32, "bias");
  if (st == PTERA_OK) st = px_want_dt(g, o, PF_XNN_DT_FP32, "output");
  if (st != PTERA_OK) return st;
  for (unsigned i = 4; i <= 12; i++)
    if (n->p[i] == 0 || n->p[i] > 65536)
      return px_fail(g, PTERA_INVALID_PROGRAM, "kernel, stride, dilation, channel and group fields must be 1..65536");
  if (x->ndims != 4) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank %u, not 4 (NHWC)", (unsigned)x->ndims);
  if (!w->is_const || (b && !b->is_const))
    return px_fail(g, PTERA_NOT_IMPLEMENTED, "filter and bias must be constants");
  geom q;
  get_geom(g, n, &q);
  bool dw = n->kind == PF_XNN_DEPTHWISE_CONV2D;
  if (dw ? (q.IC != q.groups || q.goc % q.gic) : q.IC != q.groups * q.gic)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "input has %zu channels; groups %zu x group input channels %zu",
                   q.IC, q.groups, q.gic);
  size_t want_w[4] = {dw ? 1 : q.OC, q.kh, q.kw, dw ? q.OC : q.gic};
  if (w->ndims != 4 || memcmp(w->dims, want_w, sizeof want_w))
    return px_fail(g, PTERA_INVALID_PROGRAM, "filter shape is not [%zu, %zu, %zu, %zu]", want_w[0], want_w[1],
                   want_w[2], want_w[3]);
  if (b && (px_numel(b) != q.OC))
    return px_fail(g, PTERA_INVALID_PROGRAM, "bias has %zu elements for %zu output channels", px_numel(b), q.OC);
  size_t dims[4] = {q.N, 0, 0, q.OC};
  if (!out_extent(q.IH, (size_t)n->p[0] + n->p[2], q.kh, q.sh, q.dh, &dims[1]) ||
      !out_extent(q.IW, (size_t)n->p[1] + n->p[3], q.kw, q.sw, q.dw, &dims[2]))
    return px_fail(g, PTERA_INVALID_ARGUMENT, "the %zux%zu input is smaller than the dilated kernel", q.IH, q.IW);
  return px_set_shape(g, o, dims, 4);
}

void px_conv2d_run(px_graph *g, const pf_xnn_node *n) {
  geom q;
  get_geom(g, n, &q);
  const px_value *o = &g->v[n->out[0]];
  q.OH = o->dims[1];
  q.OW = o->dims[2];
  const float *x = g->v[n->in[0]].data, *w = g->v[n->in[1]].data;
  const float *bias = n->in[2] == PF_XNN_NONE ? NULL : g->v[n->in[2]].data;
  float *y = o->data;
  bool dw = n->kind == PF_XNN_DEPTHWISE_CONV2D;
  size_t m = dw ? q.goc / q.gic : 1;
  for (size_t b = 0; b < q.N; b++)
    for (size_t oy = 0; oy < q.OH; oy++)
      for (size_t ox = 0; ox < q.OW; ox++) {
        float *out = y + ((b * q.OH + oy) * q.OW + ox) * q.OC;
        for (size_t oc = 0; oc < q.OC; oc++) {
          size_t grp = dw ? oc / m : oc / q.goc;
          float acc = bias ? bias[oc] : 0.0f;
          for (size_t ky = 0; ky < q.kh; ky++) {
            size_t iy = oy * q.sh + ky * q.dh;
            if (iy < q.pt || iy - q.pt >= q.IH) continue;
            iy -= q.pt;
            for (size_t kx = 0; kx < q.kw; kx++) {
              size_t ix = ox * q.sw + kx * q.dw;
              if (ix < q.pl || ix - q.pl >= q.IW) continue;
              ix -= q.pl;
              const float *in = x + ((b * q.IH + iy) * q.IW + ix) * q.IC;
              if (dw) {
                acc += in[grp] * w[(ky * q.kw + kx) * q.OC + oc];
              } else {
                const float *wk = w + ((oc * q.kh + ky) * q.kw + kx) * q.gic;
                const float *ig = in + grp * q.gic;
                for (size_t i = 0; i < q.gic; i++) acc += ig[i] * wk[i];
              }
            }
          }
          out[oc] = px_clampf(acc, n->out_min, n->out_max);
        }
      }
}

/* Quantized Conv2d, DepthwiseConv2d and ConvTranspose2d on NHWC (docs/XNNPACK.md
 * §6, §8, §8.1), geometry as the fp32 nodes (node_conv2d.c, node_deconv2d.c).
 *   acc = sum (xq - zx)(wq - zw)  over the window (int; padding adds nothing)
 * Static: input and output qint8/quint8 per tensor, filter of the input's
 * type per tensor or qcint8 per channel (qint8 input), bias qint32/qcint32
 * (scale sx*sw, zero point 0):
 *   y = sat(rne(float(acc + bq) * ((sx*sw[o]) / so)) + zo), clamped to
 *   output_min/max quantized with the output's parameters.
 * Dynamic (qd8): qdint8 input whose rows hold whole images, qcint8 filter,
 * fp32 bias and output: y = (float(acc) * s_row) * sw[o] + bias[o], then clamp.
 * int8 x int8 sums (filter zero point 0, not depthwise) run four channels at
 * a time on the qs8 dot micro-kernels. */
#include <math.h>

#include "xnnpack/xnn_quant.h"

typedef struct geom {
  size_t N, IH, IW, IC, OH, OW, OC, kh, kw, sh, sw, dh, dw, pt, pl, gic, goc, mult;
  bool dwc, tr;
} geom;

static void get_geom(const px_graph *g, const pf_xnn_node *n, geom *q) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  q->N = x->dims[0];
  q->IH = x->dims[1];
  q->IW = x->dims[2];
  q->IC = x->dims[3];
  q->OH = o->dims[1];
  q->OW = o->dims[2];
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
  q->dwc = n->kind == PF_XNN_DEPTHWISE_CONV2D;
  q->tr = n->kind == PF_XNN_CONV_TRANSPOSE2D;
  q->mult = q->dwc ? q->goc / q->gic : 1;
  q->OC = q->dwc ? n->p[12] * q->mult : n->p[12] * q->goc;
}

/* Output extent of a convolution dim; false when the window does not fit. */
static bool conv_extent(size_t in, size_t pad, size_t k, size_t stride, size_t dil, size_t *out) {
  size_t eff = dil * (k - 1) + 1;
  if (in + pad < eff) return false;
  *out = (in + pad - eff) / stride + 1;
  return true;
}

/* Output extent of a transposed convolution dim; false when padding removes it. */
static bool deconv_extent(size_t in, size_t pad, size_t k, size_t stride, size_t dil, size_t adj, size_t *out) {
  if (in == 0) return false;
  size_t full = (in - 1) * stride + dil * (k - 1) + 1 + adj;
  if (full <= pad) return false;
  *out = full - pad;
  return true;
}

static ptera_status check_types(px_graph *g, const pf_xnn_node *n, size_t OC) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]], *o = &g->v[n->out[0]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  bool pc = w->dt == PF_XNN_DT_QCINT8;
  if (pc && (w->def->quant != PF_XNN_Q_PER_CHANNEL || w->nscales != OC))
    return px_fail(g, PTERA_INVALID_PROGRAM, "qcint8 filter needs %zu per-channel scales", OC);
  if (x->dt == PF_XNN_DT_QDINT8) {
    if (!pc || o->dt != PF_XNN_DT_FP32 || (b && b->dt != PF_XNN_DT_FP32))
      return px_fail(g, PTERA_NOT_IMPLEMENTED, "qdint8 input needs a qcint8 filter, fp32 bias and fp32 output");
    return PTERA_OK;
  }
  ptera_status st = px_want_q8(g, x, "input");
  if (st == PTERA_OK) st = px_want_q8(g, o, "output");
  if (st == PTERA_OK && o->dt != x->dt)
    st = px_fail(g, PTERA_NOT_IMPLEMENTED, "output datatype %s differs from the input's %s", pf_xnn_dtype_name(o->dt),
                 pf_xnn_dtype_name(x->dt));
  if (st == PTERA_OK && !(pc && x->dt == PF_XNN_DT_QINT8)) {
    st = px_want_q8(g, w, "filter");
    if (st == PTERA_OK && w->dt != x->dt)
      st = px_fail(g, PTERA_NOT_IMPLEMENTED, "filter datatype %s does not go with a %s input",
                   pf_xnn_dtype_name(w->dt), pf_xnn_dtype_name(x->dt));
  }
  if (st == PTERA_OK && b && b->dt != PF_XNN_DT_QINT32 && b->dt != PF_XNN_DT_QCINT32)
    st = px_fail(g, PTERA_NOT_IMPLEMENTED, "bias has datatype %s; qint32 or qcint32 needed", pf_xnn_dtype_name(b->dt));
  for (size_t c = 0; c < (pc ? OC : 1) && st == PTERA_OK; c++)
    st = px_check_requant(g, x->def->scale, pc ? w->scales[c] : w->def->scale, o->def->scale, c);
  return st;
}

ptera_status px_conv_quant_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  px_value *o = &g->v[n->out[0]];
  for (unsigned i = 0; i <= 14; i++)
    if ((i >= 4 && i <= 12 && n->p[i] == 0) || n->p[i] > 65536)
      return px_fail(g, PTERA_INVALID_PROGRAM, "kernel, stride, dilation, channel and group fields must be 1..65536");
  if (x->ndims != 4) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank %u, not 4 (NHWC)", (unsigned)x->ndims);
  if (!w->is_const || (b && !b->is_const))
    return px_fail(g, PTERA_NOT_IMPLEMENTED, "filter and bias must be constants");
  geom q;
  get_geom(g, n, &q);
  if (q.dwc ? (q.IC != n->p[12] || q.goc % q.gic) : q.IC != n->p[12] * q.gic)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "input has %zu channels; groups %u x group input channels %zu", q.IC,
                   (unsigned)n->p[12], q.gic);
  size_t want_w[4] = {q.dwc ? 1 : q.OC, q.kh, q.kw, q.dwc ? q.OC : q.gic};
  if (w->ndims != 4 || memcmp(w->dims, want_w, sizeof want_w))
    return px_fail(g, PTERA_INVALID_PROGRAM, "filter shape is not [%zu, %zu, %zu, %zu]", want_w[0], want_w[1],
                   want_w[2], want_w[3]);
  if (b && px_numel(b) != q.OC)
    return px_fail(g, PTERA_INVALID_PROGRAM, "bias has %zu elements for %zu output channels", px_numel(b), q.OC);
  ptera_status st = check_types(g, n, q.OC);
  if (st != PTERA_OK) return st;
  if (x->dt == PF_XNN_DT_QDINT8) {
    size_t rows, rowlen, image = q.IH * q.IW * q.IC;
    st = px_qd8_input(g, n->in[0], &rows, &rowlen);
    if (st == PTERA_OK && image && rowlen % image)
      st = px_fail(g, PTERA_NOT_IMPLEMENTED, "dynamic quantization rows of %zu elements split %zu-element images",
                   rowlen, image);
    if (st != PTERA_OK) return st;
  }
  size_t dims[4] = {q.N, 0, 0, q.OC};
  bool ok = q.tr ? deconv_extent(q.IH, (size_t)n->p[0] + n->p[2], q.kh, q.sh, q.dh, n->p[13], &dims[1]) &&
                       deconv_extent(q.IW, (size_t)n->p[1] + n->p[3], q.kw, q.sw, q.dw, n->p[14], &dims[2])
                 : conv_extent(q.IH, (size_t)n->p[0] + n->p[2], q.kh, q.sh, q.dh, &dims[1]) &&
                       conv_extent(q.IW, (size_t)n->p[1] + n->p[3], q.kw, q.sw, q.dw, &dims[2]);
  if (!ok) return px_fail(g, PTERA_INVALID_ARGUMENT, "the %zux%zu input gives an empty output", q.IH, q.IW);
  return px_set_shape(g, o, dims, 4);
}

/* Input position of kernel tap k for output position out; false when the
 * tap falls on padding (or, transposed, between input pixels). */
static bool tap(const geom *q, bool vert, size_t out, size_t k, size_t *in) {
  size_t pad = vert ? q->pt : q->pl, s = vert ? q->sh : q->sw, d = vert ? q->dh : q->dw, n = vert ? q->IH : q->IW;
  if (q->tr) { /* out + pad = in*s + k*d */
    size_t p = out + pad;
    if (p < k * d || (p - k * d) % s) return false;
    *in = (p - k * d) / s;
  } else {
    size_t p = out * s + k * d;
    if (p < pad) return false;
    *in = p - pad;
  }
  return *in < n;
}

/* sum (xq - zx)(wq - zw) for output pixel (b, oy, ox), channel oc. */
static int64_t accumulate(const geom *q, const px_value *xv, const px_value *wv, int32_t zx, int32_t zw, size_t b,
                          size_t oy, size_t ox, size_t oc) {
  int64_t acc = 0;
  size_t grp = q->dwc ? oc / q->mult : oc / q->goc;
  for (size_t ky = 0; ky < q->kh; ky++) {
    size_t iy, ix;
    if (!tap(q, true, oy, ky, &iy)) continue;
    for (size_t kx = 0; kx < q->kw; kx++) {
      if (!tap(q, false, ox, kx, &ix)) continue;
      size_t at = ((b * q->IH + iy) * q->IW + ix) * q->IC;
      if (q->dwc) {
        acc += (int64_t)(px_qload(xv->dt, xv->data, at + grp) - zx) *
               (px_qload(wv->dt, wv->data, (ky * q->kw + kx) * q->OC + oc) - zw);
        continue;
      }
      size_t wk = ((oc * q->kh + ky) * q->kw + kx) * q->gic;
      at += grp * q->gic;
      for (size_t i = 0; i < q->gic; i++)
        acc += (int64_t)(px_qload(xv->dt, xv->data, at + i) - zx) * (px_qload(wv->dt, wv->data, wk + i) - zw);
    }
  }
  return acc;
}

/* The same sums for the four channels oc0..oc0+3 of one group, int8 input
 * and filter with zero filter zero point, on the qs8 dot micro-kernels. */
static void accumulate4(const geom *q, const px_value *xv, const px_value *wv, int32_t zx, size_t b, size_t oy,
                        size_t ox, size_t oc0, pk_qs8_dot4_fn dot4, int64_t *acc) {
  size_t grp = oc0 / q->goc, stride = q->kh * q->kw * q->gic;
  const int8_t *x = xv->data, *w = wv->data;
  for (size_t ky = 0; ky < q->kh; ky++) {
    size_t iy, ix;
    if (!tap(q, true, oy, ky, &iy)) continue;
    for (size_t kx = 0; kx < q->kw; kx++) {
      if (!tap(q, false, ox, kx, &ix)) continue;
      size_t at = ((b * q->IH + iy) * q->IW + ix) * q->IC + grp * q->gic, wk = ((oc0 * q->kh + ky) * q->kw + kx) * q->gic;
      for (size_t k = 0; k < q->gic; k += 256) {
        int32_t d[4];
        size_t kn = q->gic - k < 256 ? q->gic - k : 256;
        dot4(kn, x + at + k, zx, w + wk + k, stride, d);
        for (size_t j = 0; j < 4; j++) acc[j] += d[j];
      }
    }
  }
}

void px_conv_quant_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *wv = &g->v[n->in[1]], *o = &g->v[n->out[0]];
  const void *bias = n->in[2] == PF_XNN_NONE ? NULL : g->v[n->in[2]].data;
  if (!px_numel(o)) return; /* no outputs (the loops below would still walk the empty dims) */
  geom q;
  get_geom(g, n, &q);
  bool qd8 = xv->dt == PF_XNN_DT_QDINT8, pc = wv->dt == PF_XNN_DT_QCINT8;
  const px_qd8_param *prm = NULL;
  size_t rows = 0, rowlen = 1, image = q.IH * q.IW * q.IC;
  if (qd8) {
    if (px_qd8_rows(g, xv, &rows, &rowlen) != PTERA_OK) return; /* checked by reshape */
    prm = px_qd8_params(xv);
  }
  int32_t zw = pc ? 0 : wv->def->zero_point, zo = qd8 ? 0 : o->def->zero_point;
  float so = qd8 ? 1.0f : o->def->scale;
  float qlo = qd8 ? 0.0f : px_qbound(n->out_min, so, zo, o->dt), qhi = qd8 ? 0.0f : px_qbound(n->out_max, so, zo, o->dt);
  /* int8 input and filter, filter zero point 0, not depthwise: the dot micro-kernels */
  bool dot = xv->dt != PF_XNN_DT_QUINT8 && wv->dt != PF_XNN_DT_QUINT8 && zw == 0 && !q.dwc;
  pk_qs8_dot4_fn dot4 = px_qs8_dot4();
  for (size_t b = 0; b < q.N; b++) {
    px_qd8_param p = {qd8 ? 0 : xv->def->zero_point, qd8 ? 0.0f : xv->def->scale};
    if (qd8 && image) p = prm[b * image / rowlen];
    for (size_t oy = 0; oy < q.OH; oy++)
      for (size_t ox = 0; ox < q.OW; ox++) {
        size_t at = ((b * q.OH + oy) * q.OW + ox) * q.OC;
        for (size_t oc = 0; oc < q.OC;) {
          int64_t acc[4] = {0, 0, 0, 0};
          size_t nc = 1;
          if (dot && oc % q.goc + 4 <= q.goc) { /* four channels of one group */
            nc = 4;
            accumulate4(&q, xv, wv, p.zero_point, b, oy, ox, oc, dot4, acc);
          } else {
            acc[0] = accumulate(&q, xv, wv, p.zero_point, zw, b, oy, ox, oc);
          }
          for (size_t j = 0; j < nc; j++, oc++) {
            float sw = pc ? wv->scales[oc] : wv->def->scale;
            if (qd8) {
              float v = (float)acc[j] * p.scale; /* one rounding per statement: no fused multiply-add */
              v *= sw;
              v += bias ? ((const float *)bias)[oc] : 0.0f;
              ((float *)o->data)[at + oc] = px_clampf(v, n->out_min, n->out_max);
            } else {
              float r = (p.scale * sw) / so;
              float v = (float)(acc[j] + (bias ? ((const int32_t *)bias)[oc] : 0));
              px_qstore(o->dt, o->data, at + oc, px_clampf(nearbyintf(v * r) + (float)zo, qlo, qhi));
            }
          }
        }
      }
  }
}

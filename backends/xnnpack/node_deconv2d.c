/* ConvTranspose2d on NHWC float (docs/XNNPACK.md §8): every input pixel scatters
 * x * W[g*gOC+o, ky, kx, i] to (iy*sh - pt + ky*dh, ix*sw - pl + kx*dw).
 * Computed by the shared NCHW convolution (kernels/cpu/conv2d.h, transposed:
 * by output phase, no zero insertion) between NHWC <-> NCHW copies in the
 * scratch. Its padding is symmetric, so it runs with pad = (pt, pl) and
 * output padding adjustment + pt - pb (at least 0); the rows and columns
 * past the output are dropped when copying back. The filter is rearranged
 * to [IC, gOC, kh, kw] at init. */
#include "cpu/conv2d.h"
#include "xnnpack/xnn.h"

typedef struct deconv_state {
  float *w;    /* [groups*gIC, gOC, kh, kw] */
  float *bias; /* fp32, or NULL */
} deconv_state;

/* Bytes of the NCHW copies of the input and the output (64-byte rounded). */
static bool nchw_bytes(const pk_conv2d_geom *q, size_t *in, size_t *out) {
  return px_f32_bytes4((size_t)q->n, (size_t)q->c_in, (size_t)q->h, (size_t)q->w, in) &&
         px_f32_bytes4((size_t)q->n, (size_t)q->c_out, (size_t)q->oh, (size_t)q->ow, out);
}

static int64_t nonneg(int64_t v) { return v < 0 ? 0 : v; }

/* The NCHW geometry at the current input shape. */
static ptera_status deconv_geom(px_graph *g, const pf_xnn_node *n, pk_conv2d_geom *q) {
  const px_value *x = &g->v[n->in[0]];
  memset(q, 0, sizeof *q);
  q->n = (int64_t)x->dims[0];
  q->h = (int64_t)x->dims[1];
  q->w = (int64_t)x->dims[2];
  q->c_in = (int64_t)x->dims[3];
  q->groups = n->p[12];
  q->c_out = (int64_t)n->p[12] * n->p[11];
  q->kh = n->p[4];
  q->kw = n->p[5];
  q->stride[0] = n->p[6];
  q->stride[1] = n->p[7];
  q->dil[0] = n->p[8];
  q->dil[1] = n->p[9];
  q->pad[0] = n->p[0];
  q->pad[1] = n->p[3];
  q->out_pad[0] = nonneg((int64_t)n->p[13] + n->p[0] - n->p[2]);
  q->out_pad[1] = nonneg((int64_t)n->p[14] + n->p[3] - n->p[1]);
  q->transposed = true;
  q->layout = PK_CONV_NCHW;
  char msg[128];
  if (pk_conv2d_geom_init(q, msg, sizeof msg) != PTERA_OK) return px_fail(g, PTERA_INVALID_ARGUMENT, "%s", msg);
  if (!pk_conv2d_f32_supported(q))
    return px_fail(g, PTERA_NOT_IMPLEMENTED, "a %zux%zu kernel is larger than the convolution kernels take",
                   (size_t)q->kh, (size_t)q->kw);
  return PTERA_OK;
}

ptera_status px_deconv2d_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, w, "filter");
  if (st == PTERA_OK && b) st = px_want_float(g, b, "bias");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
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
  st = px_set_shape(g, o, dims, 4);
  pk_conv2d_geom q;
  if (st != PTERA_OK) return st;
  st = deconv_geom(g, n, &q);
  if (st != PTERA_OK) return st;
  size_t in, out, ws = pk_conv2d_f32_workspace(&q, px_threads(g));
  if (ws == SIZE_MAX || !nchw_bytes(&q, &in, &out) || in > SIZE_MAX / 4 || out > SIZE_MAX / 4 || ws > SIZE_MAX / 4)
    return px_need_ws(g, SIZE_MAX);
  return px_need_ws(g, in + out + ws);
}

ptera_status px_deconv2d_prepare(px_graph *g, const pf_xnn_node *n) {
  const px_value *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  size_t groups = n->p[12], gic = n->p[10], goc = n->p[11], taps = (size_t)n->p[4] * n->p[5], OC = groups * goc;
  deconv_state *s = px_packed_alloc(g, sizeof *s);
  s = s && (s->w = px_packed_alloc(g, OC * taps * gic * sizeof(float))) ? s : NULL;
  const float *wf = s ? px_const_f32(g, w) : NULL;
  if (!wf) return PTERA_MEMORY_ALLOCATION_FAILED;
  for (size_t grp = 0; grp < groups; grp++) /* [g*gOC + o][t][i] -> [g*gIC + i][o][t] */
    for (size_t o = 0; o < goc; o++)
      for (size_t t = 0; t < taps; t++)
        for (size_t i = 0; i < gic; i++)
          s->w[((grp * gic + i) * goc + o) * taps + t] = wf[((grp * goc + o) * taps + t) * gic + i];
  px_f32_release(g, w, wf);
  if (b && !(s->bias = px_const_f32_copy(g, b, OC))) return PTERA_MEMORY_ALLOCATION_FAILED;
  g->state[g->cur] = s;
  return PTERA_OK;
}

void px_deconv2d_run(px_graph *g, const pf_xnn_node *n) {
  pk_conv2d_geom q;
  if (deconv_geom(g, n, &q) != PTERA_OK) return; /* reshape checked it */
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  const deconv_state *s = g->state[g->cur];
  static const size_t nopad[4] = {0, 0, 0, 0};
  size_t in, out;
  if (!px_numel(o)) return; /* the scratch may be absent */
  nchw_bytes(&q, &in, &out); /* reshape checked they fit */
  float *xin = px_ws(g), *yout = (float *)((char *)xin + in);
  void *ws = (char *)yout + out;
  px_nhwc_to_nchw(x->data, x->dims[0], x->dims[1], x->dims[2], x->dims[3], nopad, xin, px_kctx(g));
  pk_conv2d_f32(&q, xin, s->w, NULL, s->bias, yout, n->out_min, n->out_max, ws, px_kctx(g));
  px_nchw_to_nhwc(yout, (size_t)q.n, (size_t)q.c_out, (size_t)q.oh, (size_t)q.ow, o->dims[1], o->dims[2], o->data,
                  px_kctx(g));
}



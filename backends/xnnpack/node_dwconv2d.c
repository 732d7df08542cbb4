/* The NCHW route of the NHWC float convolutions (docs/XNNPACK.md §8): the shared
 * NCHW convolution (kernels/cpu/conv2d.h) between NHWC <-> NCHW copies in the
 * scratch; asymmetric padding is written into the NCHW copy.
 *   DepthwiseConv2d always (the dwconv micro-kernels, or the grouped product
 *   for other shapes): output channel c*m + j reads input channel c; filter
 *   [1, kh, kw, C*m], rearranged to [C*m, 1, kh, kw] at init;
 *   Conv2d where the NCHW layout has a faster path than the channels-last
 *   one (Winograd, pixels as rows: px_conv_nchw_wins); filter [C_out, kh, kw,
 *   C_in/g], rearranged to [C_out, C_in/g, kh, kw] at init.
 * The filters are packed when the path packs. Shape checks are
 * px_conv2d_reshape's. An NCHW-resident input or output (xnn_residency.c)
 * is read or written in place instead of through its copy. */
#include <stdio.h>

#include "cpu/conv2d.h"
#include "cpu/conv2d_pixrows.h"
#include "cpu/conv2d_winograd.h"
#include "xnnpack/xnn.h"

typedef struct dw_state {
  float *w;           /* [C_out, C_in/g, kh, kw] */
  const void *packed; /* pk_conv2d_f32_pack of w, or NULL */
  float *bias;        /* fp32, or NULL */
} dw_state;

/* Bytes of the NCHW copies of the input and the output (64-byte rounded). */
static bool nchw_bytes(const pk_conv2d_geom *q, size_t *in, size_t *out) {
  return px_f32_bytes4((size_t)q->n, (size_t)q->c_in, (size_t)q->h, (size_t)q->w, in) &&
         px_f32_bytes4((size_t)q->n, (size_t)q->c_out, (size_t)q->oh, (size_t)q->ow, out);
}

static bool symmetric(const pf_xnn_node *n) { return n->p[0] == n->p[2] && n->p[1] == n->p[3]; }

/* The NCHW geometry at the current shapes; pad holds the explicit
 * padding of the NCHW copy (t, b, l, r). Fails when the shared kernel
 * cannot take it. */
static ptera_status build_geom(const px_graph *g, const pf_xnn_node *n, pk_conv2d_geom *q, size_t pad[4],
                               char *msg, size_t msg_size) {
  const px_value *x = &g->v[n->in[0]];
  bool sym = symmetric(n), dw = n->kind == PF_XNN_DEPTHWISE_CONV2D;
  memset(q, 0, sizeof *q);
  pad[0] = sym ? 0 : n->p[0];
  pad[1] = sym ? 0 : n->p[2];
  pad[2] = sym ? 0 : n->p[3];
  pad[3] = sym ? 0 : n->p[1];
  q->n = (int64_t)x->dims[0];
  q->h = (int64_t)(x->dims[1] + pad[0] + pad[1]);
  q->w = (int64_t)(x->dims[2] + pad[2] + pad[3]);
  q->c_in = (int64_t)x->dims[3];
  q->groups = dw ? q->c_in : (int64_t)n->p[12];
  q->c_out = dw ? (int64_t)(x->dims[3] * (n->p[11] / n->p[10])) : (int64_t)(n->p[12] * n->p[11]);
  q->kh = n->p[4];
  q->kw = n->p[5];
  q->stride[0] = n->p[6];
  q->stride[1] = n->p[7];
  q->dil[0] = n->p[8];
  q->dil[1] = n->p[9];
  q->pad[0] = sym ? n->p[0] : 0;
  q->pad[1] = sym ? n->p[3] : 0;
  q->layout = PK_CONV_NCHW;
  if (pk_conv2d_geom_init(q, msg, msg_size) != PTERA_OK) return PTERA_INVALID_ARGUMENT;
  if (!pk_conv2d_f32_supported(q)) {
    snprintf(msg, msg_size, "a %zux%zu kernel is larger than the convolution kernels take", (size_t)q->kh,
             (size_t)q->kw);
    return PTERA_NOT_IMPLEMENTED;
  }
  return PTERA_OK;
}

static ptera_status dw_geom(px_graph *g, const pf_xnn_node *n, pk_conv2d_geom *q, size_t pad[4]) {
  char msg[128];
  ptera_status st = build_geom(g, n, q, pad, msg, sizeof msg);
  return st == PTERA_OK ? st : px_fail(g, st, "%s", msg);
}

bool px_conv_nchw_ok(const px_graph *g, const pf_xnn_node *n) {
  pk_conv2d_geom q;
  size_t pad[4];
  char msg[128];
  return g->v[n->in[0]].dt == PF_XNN_DT_FP32 && build_geom(g, n, &q, pad, msg, sizeof msg) == PTERA_OK;
}

bool px_conv_nchw_wins(const px_graph *g, const pf_xnn_node *n) {
  pk_conv2d_geom q;
  size_t pad[4];
  char msg[128];
  if (build_geom(g, n, &q, pad, msg, sizeof msg) != PTERA_OK) return false;
  return pk_conv2d_wino_applies(&q) || pk_conv2d_pixrows_applies(&q);
}

ptera_status px_dwconv2d_need_ws(px_graph *g, const pf_xnn_node *n) {
  pk_conv2d_geom q;
  size_t pad[4];
  ptera_status st = dw_geom(g, n, &q, pad);
  if (st != PTERA_OK) return st;
  size_t in, out, ws = pk_conv2d_f32_workspace(&q, px_threads(g));
  if (ws == SIZE_MAX || !nchw_bytes(&q, &in, &out) || in > SIZE_MAX / 4 || out > SIZE_MAX / 4 || ws > SIZE_MAX / 4)
    return px_need_ws(g, SIZE_MAX);
  return px_need_ws(g, in + out + ws);
}

ptera_status px_dwconv2d_prepare(px_graph *g, const pf_xnn_node *n) {
  pk_conv2d_geom q;
  size_t pad[4];
  ptera_status st = dw_geom(g, n, &q, pad);
  if (st != PTERA_OK) return st;
  const px_value *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  size_t OC = (size_t)q.c_out, taps = (size_t)(q.kh * q.kw), gic = (size_t)(q.c_in / q.groups);
  dw_state *s = px_packed_alloc(g, sizeof *s);
  s = s && (s->w = px_packed_alloc(g, OC * gic * taps * sizeof(float))) ? s : NULL;
  const float *wf = s ? px_const_f32(g, w) : NULL;
  if (!wf) return PTERA_MEMORY_ALLOCATION_FAILED;
  if (n->kind == PF_XNN_DEPTHWISE_CONV2D) /* [1, kh, kw, OC] */
    for (size_t t = 0; t < taps; t++)
      for (size_t oc = 0; oc < OC; oc++) s->w[oc * taps + t] = wf[t * OC + oc];
  else /* [OC, kh, kw, gIC] */
    for (size_t oc = 0; oc < OC; oc++)
      for (size_t t = 0; t < taps; t++)
        for (size_t ic = 0; ic < gic; ic++) s->w[(oc * gic + ic) * taps + t] = wf[(oc * taps + t) * gic + ic];
  px_f32_release(g, w, wf);
  size_t ps = pk_conv2d_f32_pack_size(&q);
  if (ps == SIZE_MAX) return px_fail(g, PTERA_INVALID_PROGRAM, "packed filter size overflows");
  if (ps) {
    void *p = px_packed_alloc(g, ps);
    if (!p) return PTERA_MEMORY_ALLOCATION_FAILED;
    pk_conv2d_f32_pack(&q, s->w, p);
    s->packed = p;
  }
  if (b && !(s->bias = px_const_f32_copy(g, b, OC))) return PTERA_MEMORY_ALLOCATION_FAILED;
  g->state[g->cur] = s;
  return PTERA_OK;
}

void px_dwconv2d_run(px_graph *g, const pf_xnn_node *n) {
  pk_conv2d_geom q;
  size_t pad[4];
  if (dw_geom(g, n, &q, pad) != PTERA_OK) return; /* reshape checked it */
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  const dw_state *s = g->state[g->cur];
  size_t in, out;
  if (!px_numel(o)) return; /* the scratch may be absent */
  nchw_bytes(&q, &in, &out); /* reshape checked they fit */
  float *xin = px_ws(g), *yout = o->nchw ? o->data : (float *)((char *)xin + in);
  void *ws = (char *)xin + in + out;
  if (x->nchw) /* resident: already NCHW (and symmetrically padded) */
    xin = x->data;
  else
    px_nhwc_to_nchw(x->data, x->dims[0], x->dims[1], x->dims[2], x->dims[3], pad, xin, px_kctx(g));
  pk_conv2d_f32(&q, xin, s->w, s->packed, s->bias, yout, n->out_min, n->out_max, ws, px_kctx(g));
  if (!o->nchw)
    px_nchw_to_nhwc(yout, (size_t)q.n, (size_t)q.c_out, (size_t)q.oh, (size_t)q.ow, o->dims[1], o->dims[2],
                    o->data, px_kctx(g));
}

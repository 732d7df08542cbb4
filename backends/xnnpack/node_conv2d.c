/* Conv2d on NHWC float (docs/XNNPACK.md §7, §8), and the shape checks it shares
 * with DepthwiseConv2d (node_dwconv2d.c). Field p[]: padding t,r,b,l;
 * kernel h,w; subsampling (stride) h,w; dilation h,w; group input/output
 * channels; groups.
 *
 * Conv2d runs on the shared channels-last convolution (kernels/cpu/conv2d.h,
 * layout PK_CONV_NHWC) with the filters packed once at init; its filter
 * layout [C_out, kh, kw, C_in/g] is Conv2d's own. The kernel pads
 * symmetrically; asymmetric padding is written into a zero-padded NHWC copy
 * of the input in the scratch, convolved unpadded. Where the NCHW layout has
 * a faster path (Winograd, pixels as rows), Conv2d takes the NCHW route of
 * node_dwconv2d.c instead, chosen at init; so does every Conv2d the route
 * takes when some convolution of the graph runs it (the values between them
 * then stay NCHW, xnn_residency.c). DepthwiseConv2d always takes that
 * route (the dwconv micro-kernels between layout copies: the NHWC depthwise
 * loop is slower than both together). */
#include "cpu/conv2d.h"
#include "xnnpack/xnn.h"

typedef struct conv_state {
  const void *packed; /* pk_conv2d_f32_pack of the filters */
  float *bias;        /* fp32, or NULL */
  void *nchw;         /* the NCHW route's state (node_dwconv2d.c), or NULL */
} conv_state;

/* Whether node n runs through the NCHW route: decided at init (before its
 * state exists, at the stored shapes), then kept. */
static bool nchw_route(px_graph *g, const pf_xnn_node *n) {
  if (n->kind == PF_XNN_DEPTHWISE_CONV2D) return true;
  const conv_state *s = g->sizing ? NULL : g->state[g->cur];
  return s ? s->nchw != NULL : px_conv_nchw_wins(g, n);
}

static bool symmetric(const pf_xnn_node *n) { return n->p[0] == n->p[2] && n->p[1] == n->p[3]; }

/* The NHWC geometry at the current input shape (asymmetric padding: of the
 * padded copy). Fails when the kernel does not fit the padded input. */
static ptera_status conv_geom(px_graph *g, const pf_xnn_node *n, pk_conv2d_geom *q) {
  const px_value *x = &g->v[n->in[0]];
  bool sym = symmetric(n), dw = n->kind == PF_XNN_DEPTHWISE_CONV2D;
  memset(q, 0, sizeof *q);
  q->n = (int64_t)x->dims[0];
  q->h = (int64_t)(x->dims[1] + (sym ? 0 : n->p[0] + n->p[2]));
  q->w = (int64_t)(x->dims[2] + (sym ? 0 : n->p[1] + n->p[3]));
  q->c_in = (int64_t)x->dims[3];
  q->groups = dw ? q->c_in : n->p[12];
  q->c_out = dw ? q->c_in * (n->p[11] / n->p[10]) : (int64_t)n->p[12] * n->p[11];
  q->kh = n->p[4];
  q->kw = n->p[5];
  q->stride[0] = n->p[6];
  q->stride[1] = n->p[7];
  q->dil[0] = n->p[8];
  q->dil[1] = n->p[9];
  q->pad[0] = sym ? n->p[0] : 0;
  q->pad[1] = sym ? n->p[3] : 0;
  q->layout = PK_CONV_NHWC;
  char msg[128];
  if (pk_conv2d_geom_init(q, msg, sizeof msg) != PTERA_OK) return px_fail(g, PTERA_INVALID_ARGUMENT, "%s", msg);
  return PTERA_OK;
}

/* Bytes of the padded input copy (0 for symmetric padding), 64-rounded. */
static bool pad_bytes(const pf_xnn_node *n, const pk_conv2d_geom *q, size_t *out) {
  *out = 0;
  return symmetric(n) || px_f32_bytes4((size_t)q->n, (size_t)q->h, (size_t)q->w, (size_t)q->c_in, out);
}

ptera_status px_conv2d_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, w, "filter");
  if (st == PTERA_OK && b) st = px_want_float(g, b, "bias");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st != PTERA_OK) return st;
  for (unsigned i = 4; i <= 12; i++)
    if (n->p[i] == 0 || n->p[i] > 65536)
      return px_fail(g, PTERA_INVALID_PROGRAM, "kernel, stride, dilation, channel and group fields must be 1..65536");
  if (x->ndims != 4) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank %u, not 4 (NHWC)", (unsigned)x->ndims);
  if (!w->is_const || (b && !b->is_const))
    return px_fail(g, PTERA_NOT_IMPLEMENTED, "filter and bias must be constants");
  size_t IC = x->dims[3], groups = n->p[12], gic = n->p[10], goc = n->p[11];
  bool dw = n->kind == PF_XNN_DEPTHWISE_CONV2D;
  if (dw ? (IC != groups || goc % gic) : IC != groups * gic)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "input has %zu channels; groups %zu x group input channels %zu", IC,
                   groups, gic);
  size_t OC = dw ? groups * (goc / gic) : groups * goc;
  size_t want_w[4] = {dw ? 1 : OC, n->p[4], n->p[5], dw ? OC : gic};
  if (w->ndims != 4 || memcmp(w->dims, want_w, sizeof want_w))
    return px_fail(g, PTERA_INVALID_PROGRAM, "filter shape is not [%zu, %zu, %zu, %zu]", want_w[0], want_w[1],
                   want_w[2], want_w[3]);
  if (b && (px_numel(b) != OC))
    return px_fail(g, PTERA_INVALID_PROGRAM, "bias has %zu elements for %zu output channels", px_numel(b), OC);
  pk_conv2d_geom q;
  st = conv_geom(g, n, &q);
  if (st != PTERA_OK) return st;
  size_t dims[4] = {x->dims[0], (size_t)q.oh, (size_t)q.ow, OC};
  st = px_set_shape(g, o, dims, 4);
  if (st != PTERA_OK) return st;
  if (nchw_route(g, n)) return px_dwconv2d_need_ws(g, n);
  size_t pb, ws = pk_conv2d_f32_workspace(&q, px_threads(g)), nchw = 0;
  if (ws == SIZE_MAX || !pad_bytes(n, &q, &pb) || pb > SIZE_MAX - ws) return px_need_ws(g, SIZE_MAX);
  if (g->sizing && px_conv_nchw_ok(g, n)) { /* the route is chosen after sizing: room for either */
    st = px_dwconv2d_need_ws(g, n);
    if (st != PTERA_OK) return st;
    nchw = g->ws[g->cur];
  }
  return px_need_ws(g, pb + ws > nchw ? pb + ws : nchw);
}

/* Packs filters w ([C_out, kh, kw, C_in/groups]) and copies the bias into
 * the node's state. */
static ptera_status conv_pack(px_graph *g, const pf_xnn_node *n, const float *w) {
  pk_conv2d_geom q;
  ptera_status st = conv_geom(g, n, &q);
  if (st != PTERA_OK) return st;
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  size_t OC = (size_t)q.c_out, ps = pk_conv2d_f32_pack_size(&q);
  if (ps == 0 || ps == SIZE_MAX) return px_fail(g, PTERA_INVALID_PROGRAM, "packed filter size overflows");
  conv_state *s = px_packed_alloc(g, sizeof *s);
  void *p = s ? px_packed_alloc(g, ps) : NULL;
  if (!p) return PTERA_MEMORY_ALLOCATION_FAILED;
  pk_conv2d_f32_pack(&q, w, p);
  s->packed = p;
  s->bias = NULL;
  s->nchw = NULL;
  if (b && !(s->bias = px_const_f32_copy(g, b, OC))) return PTERA_MEMORY_ALLOCATION_FAILED;
  g->state[g->cur] = s;
  return PTERA_OK;
}

bool px_conv_runs_nchw(const px_graph *g, uint32_t i) {
  const pf_xnn_node *n = &g->g.nodes[i];
  if (g->v[n->in[0]].dt != PF_XNN_DT_FP32 || !g->state[i]) return false;
  return n->kind == PF_XNN_DEPTHWISE_CONV2D || ((const conv_state *)g->state[i])->nchw != NULL;
}

ptera_status px_conv2d_prepare(px_graph *g, const pf_xnn_node *n) {
  if (px_conv_nchw_wins(g, n) || (g->nchw_pref && px_conv_nchw_ok(g, n))) {
    conv_state *s = px_packed_alloc(g, sizeof *s);
    ptera_status st = s ? px_dwconv2d_prepare(g, n) : PTERA_MEMORY_ALLOCATION_FAILED;
    if (st != PTERA_OK) return st;
    *s = (conv_state){NULL, NULL, g->state[g->cur]};
    g->state[g->cur] = s;
    return PTERA_OK;
  }
  const px_value *w = &g->v[n->in[1]];
  const float *wf = px_const_f32(g, w);
  if (!wf) return PTERA_MEMORY_ALLOCATION_FAILED;
  ptera_status st = conv_pack(g, n, wf); /* [OC, kh, kw, gIC] as the kernel reads it */
  px_f32_release(g, w, wf);
  return st;
}

void px_conv2d_run(px_graph *g, const pf_xnn_node *n) {
  conv_state *cs = g->state[g->cur];
  if (cs->nchw) {
    g->state[g->cur] = cs->nchw; /* the route reads its own state */
    px_dwconv2d_run(g, n);
    g->state[g->cur] = cs;
    return;
  }
  pk_conv2d_geom q;
  if (conv_geom(g, n, &q) != PTERA_OK) return; /* reshape checked it */
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  const conv_state *s = g->state[g->cur];
  size_t pb;
  if (!px_numel(o)) return; /* the scratch may be absent */
  pad_bytes(n, &q, &pb);    /* reshape checked it fits */
  const float *in = x->data;
  char *ws = px_ws(g);
  if (pb) {
    const size_t pad[4] = {n->p[0], n->p[2], n->p[3], n->p[1]};
    px_nhwc_pad(x->data, x->dims[0], x->dims[1], x->dims[2], x->dims[3], pad, (float *)ws);
    in = (const float *)ws;
  }
  pk_conv2d_f32(&q, in, NULL, s->packed, s->bias, o->data, n->out_min, n->out_max, ws + pb, px_kctx(g));
}

/* One partition into an XNNGraph blob (to_xnnpack.h): values in NCHW and,
 * for 4-D values convolution-type nodes touch, NHWC; with int8-static, in
 * fp32 and qint8 (a blob value per layout and datatype, made by a transpose
 * or a Convert where first needed); weights laid out for XNNPACK and stored
 * as named data under their SHA-256 hex; clamps fused into the node before
 * them where nothing else reads that node's result. */
#include <math.h>

#include "quant.h"
#include "sha256.h"
#include "to_xnnpack.h"

enum { NCHW = 0, NHWC = 1 };

typedef struct xb {
  pc_xnn_ctx *c;
  pc_graph *g;
  pc_xnn_value_desc *vals;
  uint32_t nvals, vcap;
  pc_xnn_node_desc *nodes;
  uint32_t nnodes, ncap;
  uint32_t *src, scap; /* per blob node: the graph node it lowers */
  uint32_t cur;        /* the graph node being lowered */
  bool cur_foreign;    /* static_q's scratch: it reads a foreign value */
  int32_t *id[2];   /* per graph value: blob value in that layout, or -1 */
  int32_t *idq[2];  /* per graph value: its qint8 blob value in that layout, or -1 */
  float *qscale;    /* per graph value: its qint8 parameters, once qset */
  int32_t *qzp;
  uint8_t *qset;
  /* per graph value: its qint8 form is the fresh output of a convolution or
   * linear layer, whose parameters a cat may still choose (cat_joins_q) */
  uint8_t *free_q;
  int8_t *native;   /* per graph value: the layout a node produced it in, or -1 */
  int32_t *fusable; /* per graph value: the blob node that wrote it and takes a clamp, or -1 */
  uint8_t *input;   /* per graph value: a partition input */
} xb;

/* Out of memory, unless an earlier failure already said why. */
static ptera_status oom(xb *b) {
  if (b->g->err.status != PTERA_OK) return b->g->err.status;
  return pt_fail(&b->g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory lowering '%s'",
                 b->g->name);
}

static ptera_status fail(xb *b, const char *what, int32_t v) {
  return pt_fail(&b->g->err, PTERA_INTERNAL, "XNNPACK lowering of '%s': %s (value %d)",
                 b->g->name, what, (int)v);
}

static const pc_gtensor *tensor_of(const pc_graph *g, int32_t v) {
  return &g->values[v].u.t;
}

static bool grow(xb *b, void **arr, uint32_t *cap, uint32_t n, size_t elem) {
  if (n < *cap) return true;
  uint32_t nc = *cap ? *cap * 2 : 64;
  void *p = pt_arena_array(&b->g->arena, nc, elem, 8);
  if (!p) return false;
  if (n) memcpy(p, *arr, (size_t)n * elem);
  *arr = p;
  *cap = nc;
  return true;
}

/* A new blob value with t's shape in layout l; -1 when out of memory. */
static int32_t new_value(xb *b, const pc_gtensor *t, int l) {
  if (b->nvals >= 4096) {
    pt_fail(&b->g->err, PTERA_NOT_SUPPORTED,
            "XNNPACK lowering of '%s': a partition needs more than 4096 values", b->g->name);
    return -1;
  }
  if (!grow(b, (void **)&b->vals, &b->vcap, b->nvals, sizeof *b->vals)) {
    oom(b);
    return -1;
  }
  pc_xnn_value_desc *d = &b->vals[b->nvals];
  memset(d, 0, sizeof *d);
  d->datatype = PF_XNN_DT_FP32;
  d->ndims = t->dim ? t->dim : 1;
  d->dims[0] = 1;
  for (uint32_t i = 0; i < t->dim; i++) d->dims[i] = (uint32_t)t->sizes[i];
  if (l == NHWC) {
    d->dims[1] = (uint32_t)t->sizes[2];
    d->dims[2] = (uint32_t)t->sizes[3];
    d->dims[3] = (uint32_t)t->sizes[1];
  }
  return (int32_t)b->nvals++;
}

static pc_xnn_node_desc *new_node(xb *b, uint8_t kind) {
  if (!grow(b, (void **)&b->nodes, &b->ncap, b->nnodes, sizeof *b->nodes) ||
      !grow(b, (void **)&b->src, &b->scap, b->nnodes, sizeof *b->src))
    return NULL;
  b->src[b->nnodes] = b->cur;
  pc_xnn_node_desc *n = &b->nodes[b->nnodes++];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  for (unsigned i = 0; i < PF_XNN_MAX_NODE_IN; i++) n->in[i] = PF_XNN_NONE;
  n->out[0] = n->out[1] = PF_XNN_NONE;
  return n;
}

/* Names data (nbytes, in g's arena or a CONST's) by its SHA-256 hex and
 * records it in g->named once; the key, or NULL when out of memory. */
static const char *name_data(xb *b, const uint8_t *data, size_t nbytes) {
  pc_graph *g = b->g;
  char hex[65];
  pc_sha256_hex(data, nbytes, hex);
  for (uint32_t i = 0; i < g->nnamed; i++)
    if (strcmp(g->named[i].key, hex) == 0) return g->named[i].key;
  if (g->nnamed == g->named_cap) {
    uint32_t cap = g->named_cap ? g->named_cap * 2 : 16;
    pc_gnamed *n = pt_arena_array(&g->arena, cap, sizeof *n, 8);
    if (!n) return NULL;
    if (g->nnamed) memcpy(n, g->named, g->nnamed * sizeof *n);
    g->named = n;
    g->named_cap = cap;
  }
  char *key = pt_arena_alloc(&g->arena, 65, 1);
  if (!key) return NULL;
  memcpy(key, hex, 65);
  g->named[g->nnamed++] = (pc_gnamed){key, data, nbytes};
  return key;
}

/* A constant blob value of t's shape (dims as given) holding data. */
static int32_t const_value(xb *b, const pc_gtensor *t, int l, const uint8_t *data) {
  int32_t id = new_value(b, t, l);
  const char *key = id < 0 ? NULL : name_data(b, data, t->nbytes);
  if (!key) return -1;
  b->vals[id].named_key = key;
  b->vals[id].nbytes = t->nbytes;
  return id;
}

static uint8_t *scratch_copy(xb *b, size_t n) {
  return pt_arena_alloc(&b->g->arena, n ? n : 1, 16);
}

/* 4-D float data NCHW -> NHWC. */
static void to_nhwc(const float *s, float *d, const int32_t *sz) {
  size_t N = (size_t)sz[0], C = (size_t)sz[1], H = (size_t)sz[2], W = (size_t)sz[3];
  for (size_t n = 0; n < N; n++)
    for (size_t c = 0; c < C; c++)
      for (size_t h = 0; h < H; h++)
        for (size_t w = 0; w < W; w++)
          d[((n * H + h) * W + w) * C + c] = s[((n * C + c) * H + h) * W + w];
}

static int32_t transpose(xb *b, int32_t from, const pc_gtensor *t, int l) {
  static const uint32_t perm[2][4] = {{0, 3, 1, 2}, {0, 2, 3, 1}};
  int32_t id = new_value(b, t, l);
  pc_xnn_node_desc *n = id < 0 ? NULL : new_node(b, PF_XNN_STATIC_TRANSPOSE);
  if (!n) return -1;
  pc_xnn_value_desc *src = &b->vals[from], *dst = &b->vals[id];
  dst->datatype = src->datatype, dst->quant = src->quant;
  dst->scale = src->scale, dst->zero_point = src->zero_point;
  n->p[0] = 4;
  n->v0 = perm[l];
  n->n0 = 4;
  n->in[0] = (uint32_t)from;
  n->out[0] = (uint32_t)id;
  return id;
}

/* A Convert of blob value from to datatype dt (qint8 with scale, zp). */
static int32_t convert(xb *b, int32_t from, const pc_gtensor *t, int l, uint8_t dt, float scale,
                       int32_t zp) {
  int32_t id = new_value(b, t, l);
  pc_xnn_node_desc *n = id < 0 ? NULL : new_node(b, PF_XNN_CONVERT);
  if (!n) return -1;
  pc_xnn_value_desc *d = &b->vals[id];
  d->datatype = dt;
  if (dt == PF_XNN_DT_QINT8) d->quant = PF_XNN_Q_PER_TENSOR, d->scale = scale, d->zero_point = zp;
  n->in[0] = (uint32_t)from;
  n->out[0] = (uint32_t)id;
  return id;
}

static void reads_foreign(void *ctx, int32_t v, bool written) {
  xb *b = ctx;
  if (!written && b->c->foreign[v]) b->cur_foreign = true;
}

/* Whether the call being lowered may run in int8-static: it is in the
 * quantization's scope and, unless it is a convolution or linear layer,
 * reads no value made outside it (quant_scope.h). */
static bool static_q(xb *b) {
  const pc_gnode *n = &b->g->nodes[b->cur];
  if (b->c->quantize != PC_XNN_QUANT_INT8_STATIC || !pc_qscope_in(b->g->qscope, n)) return false;
  if (pc_qscope_anchor(b->g, n)) return true;
  b->cur_foreign = false;
  pc_graph_visit_args(b->g, n, reads_foreign, b);
  return !b->cur_foreign;
}

/* Whether float32 value v has qint8 parameters: chosen already, or from
 * its calibrated range (to_xnnpack.h), which are then recorded. */
static bool qparams(xb *b, int32_t v) {
  if (b->qset[v]) return true;
  const pc_gtensor *t = tensor_of(b->g, v);
  if (!static_q(b) || (uint32_t)v >= b->c->nranges || !b->c->ranges[v].seen ||
      t->dtype != PTERA_DTYPE_FLOAT)
    return false;
  pc_qparams q = pc_qparams_affine_i8(b->c->ranges[v].min, b->c->ranges[v].max);
  b->qscale[v] = q.scale, b->qzp[v] = q.zero_point, b->qset[v] = 1;
  return true;
}

/* Whether v already has a qint8 blob value (in either layout). */
static bool has_q(const xb *b, int32_t v) { return b->idq[0][v] >= 0 || b->idq[1][v] >= 0; }

static int32_t get(xb *b, int32_t v, int l);

/* Graph value v as a qint8 blob value in layout l (qparams(v) must hold);
 * -1 with g->err set on failure. */
static int32_t getq(xb *b, int32_t v, int l) {
  const pc_gtensor *t = tensor_of(b->g, v);
  if (t->dim != 4) l = NCHW;
  if (b->idq[l][v] >= 0) return b->idq[l][v];
  int32_t id;
  if (b->idq[!l][v] >= 0) {
    id = transpose(b, b->idq[!l][v], t, l);
  } else {
    int32_t f = get(b, v, l);
    if (f < 0) return -1;
    id = convert(b, f, t, l, PF_XNN_DT_QINT8, b->qscale[v], b->qzp[v]);
  }
  if (id < 0) return oom(b), -1;
  b->idq[l][v] = id;
  return id;
}

/* Graph value v as a blob value in layout l (4-D values only; others have
 * one layout); -1 with g->err set on failure. */
static int32_t get(xb *b, int32_t v, int l) {
  const pc_gtensor *t = tensor_of(b->g, v);
  if (t->dim != 4) l = NCHW;
  if (b->id[l][v] >= 0) return b->id[l][v];
  int32_t id = -1;
  if (t->store == PC_T_CONST && !b->input[v]) {
    const uint8_t *data = t->data;
    if (l == NHWC) {
      uint8_t *d = scratch_copy(b, t->nbytes);
      if (!d) return oom(b), -1;
      to_nhwc((const float *)t->data, (float *)d, t->sizes);
      data = d;
    }
    id = const_value(b, t, l, data);
    if (id < 0) return oom(b), -1;
  } else if (b->id[!l][v] >= 0) {
    id = transpose(b, b->id[!l][v], t, l);
    if (id < 0) return oom(b), -1;
  } else if (b->idq[l][v] >= 0 || b->idq[!l][v] >= 0) {
    int32_t q = getq(b, v, l);
    id = q < 0 ? -1 : convert(b, q, t, l, PF_XNN_DT_FP32, 0, 0);
    if (id < 0) return oom(b), -1;
  } else if (b->input[v]) {
    /* It arrives in NCHW, or in NHWC when it crosses between partitions so. */
    int arrives = b->c->handoff[v] ? NHWC : NCHW;
    if (l == NHWC) b->c->wants_nhwc[v] = 1;
    if (l != arrives) {
      if (get(b, v, arrives) < 0) return -1;
      return get(b, v, l);
    }
    id = new_value(b, t, l);
    if (id < 0) return oom(b), -1;
    b->vals[id].flags = PF_XNN_VALUE_INPUT;
    b->native[v] = (int8_t)l;
  } else {
    fail(b, "a value is read before the partition writes it", v);
    return -1;
  }
  b->id[l][v] = id;
  return id;
}

/* A fresh blob value for graph value v written in layout l. */
static int32_t put(xb *b, int32_t v, int l) {
  const pc_gtensor *t = tensor_of(b->g, v);
  if (t->dim != 4) l = NCHW;
  int32_t id = new_value(b, t, l);
  if (id < 0) return oom(b), -1;
  b->id[l][v] = id;
  b->native[v] = (int8_t)l;
  b->c->native[v] = (int8_t)l;
  return id;
}

/* A fresh qint8 blob value for graph value v (qparams(v) holds) written in
 * layout l. */
static int32_t putq(xb *b, int32_t v, int l) {
  const pc_gtensor *t = tensor_of(b->g, v);
  if (t->dim != 4) l = NCHW;
  int32_t id = new_value(b, t, l);
  if (id < 0) return oom(b), -1;
  pc_xnn_value_desc *d = &b->vals[id];
  d->datatype = PF_XNN_DT_QINT8, d->quant = PF_XNN_Q_PER_TENSOR;
  d->scale = b->qscale[v], d->zero_point = b->qzp[v];
  b->idq[l][v] = id;
  b->native[v] = (int8_t)l;
  b->c->native[v] = (int8_t)l;
  return id;
}

/* Gives value y x's qint8 parameters (an op that moves or clamps values). */
static void share_q(xb *b, int32_t x, int32_t y) {
  b->qscale[y] = b->qscale[x], b->qzp[y] = b->qzp[x], b->qset[y] = 1;
}

static int64_t ints_at(const pc_graph *g, int32_t v, uint32_t i) {
  return g->values[v].u.ints.items[i];
}

static double scalar(const pc_graph *g, int32_t v, double dflt) {
  const pc_gvalue *x = &g->values[v];
  return x->kind == PC_G_INT ? (double)x->u.i : x->kind == PC_G_DOUBLE ? x->u.d : dflt;
}

/* Finishes a node writing graph value v (operands already set). */
static ptera_status finish_as(xb *b, pc_xnn_node_desc *n, int32_t v, int l, bool takes_clamp,
                              bool q) {
  uint32_t idx = (uint32_t)(n - b->nodes);
  int32_t out = q ? putq(b, v, l) : put(b, v, l);
  if (out < 0) return b->g->err.status;
  b->nodes[idx].out[0] = (uint32_t)out;
  b->fusable[v] = takes_clamp ? (int32_t)idx : -1;
  b->c->quantized += q;
  return PTERA_OK;
}

static ptera_status finish(xb *b, pc_xnn_node_desc *n, int32_t v, int l, bool takes_clamp) {
  return finish_as(b, n, v, l, takes_clamp, false);
}

/* Operand x in layout l: qint8 (making it so) when q, else fp32. */
static int32_t operand(xb *b, int32_t x, int l, bool q) { return q ? getq(b, x, l) : get(b, x, l); }

/* Marks constant blob value v as per-channel quantized along dim cd. */
static void set_channel_scales(pc_xnn_value_desc *v, uint8_t dt, const float *scales, uint32_t n,
                               int32_t cd) {
  v->datatype = dt;
  v->quant = PF_XNN_Q_PER_CHANNEL;
  v->scales = scales;
  v->nscales = n;
  v->channel_dim = cd;
}

/* Constant fp32 bias bv [n] as qcint32 with scale sx * sw[o] per channel
 * (to_xnnpack.h). */
static int32_t quantized_bias(xb *b, int32_t bv, float sx, const float *sw, uint32_t n) {
  int32_t *q = (int32_t *)scratch_copy(b, n * sizeof *q);
  float *sc = (float *)scratch_copy(b, n * sizeof *sc);
  if (!q || !sc) return oom(b), -1;
  const float *d = (const float *)tensor_of(b->g, bv)->data;
  for (uint32_t o = 0; o < n; o++) {
    sc[o] = sx * sw[o];
    q[o] = (int32_t)pc_quantize_value(d[o], sc[o], 0, INT32_MIN, INT32_MAX);
  }
  pc_gtensor t;
  memset(&t, 0, sizeof t);
  t.dtype = PTERA_DTYPE_INT;
  t.dim = 1;
  t.sizes[0] = (int32_t)n;
  t.nbytes = n * sizeof *q;
  int32_t id = const_value(b, &t, NCHW, (const uint8_t *)q);
  if (id < 0) return oom(b), -1;
  set_channel_scales(&b->vals[id], PF_XNN_DT_QCINT32, sc, n, 0);
  return id;
}

static ptera_status conv(xb *b, const pc_gnode *gn) {
  const pc_graph *g = b->g;
  const pc_gtensor *x = tensor_of(g, gn->args[0]), *w = tensor_of(g, gn->args[1]);
  int64_t groups = g->values[gn->args[8]].u.i;
  uint32_t cin = (uint32_t)x->sizes[1], cout = (uint32_t)w->sizes[0];
  uint32_t kh = (uint32_t)w->sizes[2], kw = (uint32_t)w->sizes[3], gic = (uint32_t)w->sizes[1];
  bool dw = groups == (int64_t)cin && groups > 1;
  int32_t bv = g->values[gn->args[2]].kind != PC_G_NONE ? gn->args[2] : -1;
  bool q = static_q(b) && qparams(b, gn->args[0]) && qparams(b, gn->args[9]) &&
           (bv < 0 || tensor_of(g, bv)->store == PC_T_CONST);
  int32_t in = operand(b, gn->args[0], NHWC, q);
  if (in < 0) return g->err.status;
  /* OIHW -> OHWI (Conv2d) or [1, kh, kw, O] (depthwise: I = 1); int8 per
   * output channel when quantized. */
  size_t es = q ? 1 : sizeof(float), per = (size_t)gic * kh * kw;
  uint8_t *d = scratch_copy(b, (size_t)cout * per * es);
  int8_t *qw = q ? (int8_t *)scratch_copy(b, (size_t)cout * per) : NULL;
  float *sw = q ? (float *)scratch_copy(b, cout * sizeof *sw) : NULL;
  if (!d || (q && (!qw || !sw))) return oom(b);
  const uint8_t *s = q ? (const uint8_t *)qw : (const uint8_t *)w->data;
  if (q) pc_q8_channel((const float *)w->data, false, cout, (uint32_t)per, qw, sw);
  for (uint32_t o = 0; o < cout; o++)
    for (uint32_t i = 0; i < gic; i++)
      for (uint32_t y = 0; y < kh; y++)
        for (uint32_t z = 0; z < kw; z++)
          memcpy(d + es * (dw ? (y * kw + z) * cout + o : ((o * kh + y) * kw + z) * gic + i),
                 s + es * (((o * gic + i) * kh + y) * kw + z), es);
  pc_gtensor fl = *w;
  if (dw) fl.sizes[0] = 1, fl.sizes[1] = (int32_t)kh, fl.sizes[2] = (int32_t)kw, fl.sizes[3] = (int32_t)cout;
  else fl.sizes[1] = (int32_t)kh, fl.sizes[2] = (int32_t)kw, fl.sizes[3] = (int32_t)gic;
  if (q) fl.nbytes = (size_t)cout * per;
  int32_t filt = const_value(b, &fl, NCHW, d);
  if (filt < 0) return oom(b);
  if (q) set_channel_scales(&b->vals[filt], PF_XNN_DT_QCINT8, sw, cout, dw ? 3 : 0);
  uint32_t bias = PF_XNN_NONE;
  if (bv >= 0) {
    int32_t id = q ? quantized_bias(b, bv, b->vals[in].scale, sw, cout) : get(b, bv, NCHW);
    if (id < 0) return g->err.status;
    bias = (uint32_t)id;
  }
  pc_xnn_node_desc *n = new_node(b, dw ? PF_XNN_DEPTHWISE_CONV2D : PF_XNN_CONV2D);
  if (!n) return oom(b);
  uint32_t ph = (uint32_t)ints_at(g, gn->args[4], 0), pw = (uint32_t)ints_at(g, gn->args[4], 1);
  const uint32_t p[15] = {ph, pw, ph, pw, kh, kw,
                          (uint32_t)ints_at(g, gn->args[3], 0), (uint32_t)ints_at(g, gn->args[3], 1),
                          (uint32_t)ints_at(g, gn->args[5], 0), (uint32_t)ints_at(g, gn->args[5], 1),
                          dw ? 1 : gic, dw ? cout / cin : cout / (uint32_t)groups,
                          dw ? cin : (uint32_t)groups, 0, 0};
  memcpy(n->p, p, sizeof p);
  n->in[0] = (uint32_t)in;
  n->in[1] = (uint32_t)filt;
  n->in[2] = bias;
  b->free_q[gn->args[9]] = q;
  return finish_as(b, n, gn->args[9], NHWC, true, q);
}

/* The filter of constant w ([ic, oc] when transposed, else [oc, ic]) as a
 * quantized [oc, ic] value (to_xnnpack.h, quant.h): qcint8 with fp32 scales
 * per channel, or, with gs > 0, qbint4 packed two per byte (even k in the
 * low nibble, stored q + 8) with bfloat16 scales per group of gs inputs. */
static int32_t quantized_filter(xb *b, int32_t w, bool transposed, uint32_t gs) {
  const pc_gtensor *t = tensor_of(b->g, w);
  uint32_t oc = (uint32_t)t->sizes[transposed ? 1 : 0], ic = (uint32_t)t->sizes[transposed ? 0 : 1];
  size_t nscales = gs ? (size_t)oc * (ic / gs) : oc, n = (size_t)oc * ic;
  int8_t *q = (int8_t *)scratch_copy(b, n);
  float *scales = (float *)scratch_copy(b, nscales * sizeof(float));
  if (!q || !scales) return oom(b), -1;
  const float *d = (const float *)t->data;
  if (gs) pc_q4_group(d, transposed, oc, ic, gs, q, scales);
  else pc_q8_channel(d, transposed, oc, ic, q, scales);
  pc_gtensor fl;
  memset(&fl, 0, sizeof fl);
  fl.dtype = PTERA_DTYPE_CHAR;
  fl.dim = 2;
  fl.sizes[0] = (int32_t)oc;
  fl.sizes[1] = (int32_t)ic;
  fl.nbytes = gs ? (size_t)oc * (ic / 2) : n;
  const uint8_t *data = (const uint8_t *)q;
  uint16_t *bf = NULL;
  if (gs) { /* ic is a multiple of gs, itself of 32: rows pack without padding */
    uint8_t *packed = scratch_copy(b, fl.nbytes);
    bf = (uint16_t *)scratch_copy(b, nscales * sizeof *bf);
    if (!packed || !bf) return oom(b), -1;
    for (size_t i = 0; i < n / 2; i++)
      packed[i] = (uint8_t)((q[2 * i] + 8) | ((q[2 * i + 1] + 8) << 4));
    for (size_t i = 0; i < nscales; i++) bf[i] = pt_float_to_bf16(scales[i]);
    data = packed;
  }
  int32_t id = const_value(b, &fl, NCHW, data);
  if (id < 0) return oom(b), -1;
  pc_xnn_value_desc *v = &b->vals[id];
  v->channel_dim = 0;
  if (gs) {
    v->datatype = PF_XNN_DT_QBINT4;
    v->quant = PF_XNN_Q_CHANNEL_GROUP;
    v->scales_bf16 = bf;
    v->nscales = (uint32_t)nscales;
    v->group_size = (int32_t)gs;
  } else {
    v->datatype = PF_XNN_DT_QCINT8;
    v->quant = PF_XNN_Q_PER_CHANNEL;
    v->scales = scales;
    v->nscales = oc;
  }
  return id;
}

/* x (blob value in) converted to a qdint8 value quantized per row at run
 * time (docs/XNNPACK.md 6.4). */
static int32_t dynamic_quant(xb *b, int32_t x, int32_t in) {
  int32_t id = new_value(b, tensor_of(b->g, x), NCHW);
  pc_xnn_node_desc *n = id < 0 ? NULL : new_node(b, PF_XNN_CONVERT);
  if (!n) return oom(b), -1;
  pc_xnn_value_desc *v = &b->vals[id];
  v->datatype = PF_XNN_DT_QDINT8;
  v->quant = PF_XNN_Q_PER_TOKEN;
  v->num_nonbatch_dims = 1;
  n->in[0] = (uint32_t)in;
  n->out[0] = (uint32_t)id;
  return id;
}

/* kind 0: mm(x, W [ic, oc]); 1: linear(x, W [oc, ic], b); 2: addmm(b, x, W). */
static ptera_status fully_connected(xb *b, const pc_gnode *gn, int kind) {
  const pc_graph *g = b->g;
  int32_t x = kind == 2 ? gn->args[1] : gn->args[0], w = kind == 2 ? gn->args[2] : gn->args[1];
  int32_t bv = kind == 0 ? -1 : kind == 1 ? gn->args[2] : gn->args[0];
  /* 8da4w where the group size divides the inputs, else 8da8w (to_xnnpack.h) */
  pc_xnn_quant qs = b->c->quantize;
  int32_t y = gn->args[gn->nargs - 1];
  if (bv >= 0 && g->values[bv].kind == PC_G_NONE) bv = -1;
  /* int8-static: qint8 in and out, constant bias */
  bool sq = static_q(b) && qparams(b, x) && qparams(b, y) &&
            (bv < 0 || tensor_of(g, bv)->store == PC_T_CONST);
  bool q8 = ((qs == PC_XNN_QUANT_8DA8W || qs == PC_XNN_QUANT_8DA4W) &&
             pc_qscope_in(g->qscope, gn)) || sq;
  uint32_t ic = (uint32_t)tensor_of(g, w)->sizes[kind == 1 ? 1 : 0];
  uint32_t gs = qs == PC_XNN_QUANT_8DA4W && ic % b->c->group_size == 0 ? b->c->group_size : 0;
  int32_t in = operand(b, x, NCHW, sq), filt = in < 0 ? -1 : q8 ? quantized_filter(b, w, kind != 1, gs) : get(b, w, NCHW);
  if (in >= 0 && filt >= 0 && q8 && !sq) in = dynamic_quant(b, x, in), b->c->quantized++, b->c->quantized_4bit += gs > 0;
  if (in < 0 || filt < 0) return g->err.status;
  uint32_t bias = PF_XNN_NONE;
  if (bv >= 0) {
    int32_t id = sq ? quantized_bias(b, bv, b->vals[in].scale, b->vals[filt].scales, b->vals[filt].nscales)
                    : get(b, bv, NCHW);
    if (id < 0) return g->err.status;
    bias = (uint32_t)id;
  }
  pc_xnn_node_desc *n = new_node(b, PF_XNN_FULLY_CONNECTED);
  if (!n) return oom(b);
  n->in[0] = (uint32_t)in;
  n->in[1] = (uint32_t)filt;
  n->in[2] = bias;
  n->flags = kind == 1 || q8 ? 0 : PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  b->free_q[y] = sq;
  return finish_as(b, n, y, NCHW, true, sq);
}

static bool numel_one(const pc_gtensor *t) {
  for (uint32_t i = 0; i < t->dim; i++)
    if (t->sizes[i] != 1) return false;
  return true;
}

static ptera_status binary(xb *b, const pc_gnode *gn, uint8_t kind) {
  const pc_graph *g = b->g;
  int32_t y = gn->args[gn->nargs - 1];
  const pc_gtensor *t = tensor_of(g, y);
  int l = NCHW;
  if (t->dim == 4) {
    bool ok = true, any = false;
    for (int i = 0; i < 2; i++) {
      const pc_gtensor *a = tensor_of(g, gn->args[i]);
      bool same = a->dim == 4 && memcmp(a->sizes, t->sizes, 4 * sizeof *t->sizes) == 0;
      if (!same && !numel_one(a)) ok = false;
      if (same && b->native[gn->args[i]] == NHWC) any = true;
    }
    if (ok && any) l = NHWC;
  }
  bool q = static_q(b) && kind != PF_XNN_DIV && qparams(b, gn->args[0]) &&
           qparams(b, gn->args[1]) && qparams(b, y);
  int32_t a0 = operand(b, gn->args[0], l, q), a1 = a0 < 0 ? -1 : operand(b, gn->args[1], l, q);
  if (a0 < 0 || a1 < 0) return g->err.status;
  pc_xnn_node_desc *n = new_node(b, kind);
  if (!n) return oom(b);
  n->in[0] = (uint32_t)a0;
  n->in[1] = (uint32_t)a1;
  return finish_as(b, n, y, l, true, q);
}

/* The layout an element-wise node runs in: its operand's. */
static int operand_layout(const xb *b, int32_t v) {
  return b->native[v] == NHWC ? NHWC : NCHW;
}

static ptera_status clamp(xb *b, const pc_gnode *gn, float lo, float hi) {
  const pc_graph *g = b->g;
  int32_t x = gn->args[0], y = gn->args[gn->nargs - 1];
  int32_t f = b->fusable[x];
  if (f >= 0 && b->c->reads[x] == 1 && !b->c->m.is_output[x]) {
    pc_xnn_node_desc *n = &b->nodes[f];
    if (!n->has_min_max) n->out_min = -INFINITY, n->out_max = INFINITY;
    n->has_min_max = true;
    if (lo > n->out_min) n->out_min = lo;
    if (hi < n->out_max) n->out_max = hi;
    for (int l = 0; l < 2; l++) b->id[l][y] = b->id[l][x], b->idq[l][y] = b->idq[l][x];
    b->native[y] = b->c->native[y] = b->native[x];
    b->fusable[y] = f;
    int32_t qo = b->idq[b->native[x] == NHWC][x];
    b->free_q[y] = b->free_q[x];
    if (qo >= 0) { /* the node's qint8 output takes the clamp's range */
      if (!qparams(b, y)) share_q(b, x, y);
      share_q(b, y, x);
      b->vals[qo].scale = b->qscale[y];
      b->vals[qo].zero_point = b->qzp[y];
    }
    return PTERA_OK;
  }
  int l = operand_layout(b, x);
  bool q = static_q(b) && has_q(b, x);
  if (q) share_q(b, x, y);
  int32_t in = operand(b, x, l, q);
  if (in < 0) return g->err.status;
  pc_xnn_node_desc *n = new_node(b, PF_XNN_CLAMP);
  if (!n) return oom(b);
  n->in[0] = (uint32_t)in;
  n->has_min_max = true;
  n->out_min = lo;
  n->out_max = hi;
  return finish_as(b, n, y, l, false, q);
}

/* Whether a node that only moves values of x into y runs on x's qint8
 * form; if so y shares x's parameters. */
static bool moves_q(xb *b, int32_t x, int32_t y) {
  if (!static_q(b) || !has_q(b, x)) return false;
  share_q(b, x, y);
  return true;
}

/* Element-wise nodes run in their operand's layout; softmax (over the
 * innermost dim) in NCHW. */
static ptera_status unary(xb *b, const pc_gnode *gn, uint8_t kind) {
  int32_t x = gn->args[0], y = gn->args[gn->nargs - 1];
  int l = kind == PF_XNN_SOFTMAX ? NCHW : operand_layout(b, x);
  bool q = kind == PF_XNN_COPY && moves_q(b, x, y);
  int32_t in = operand(b, x, l, q);
  if (in < 0) return b->g->err.status;
  pc_xnn_node_desc *n = new_node(b, kind);
  if (!n) return oom(b);
  n->in[0] = (uint32_t)in;
  return finish_as(b, n, y, l, false, q);
}

static ptera_status pool(xb *b, const pc_gnode *gn, bool max) {
  const pc_graph *g = b->g;
  int32_t y = max ? gn->args[6] : gn->args[7];
  bool q = max ? moves_q(b, gn->args[0], y)
               : static_q(b) && has_q(b, gn->args[0]) && qparams(b, y);
  int32_t in = operand(b, gn->args[0], NHWC, q);
  if (in < 0) return g->err.status;
  pc_xnn_node_desc *n = new_node(b, max ? PF_XNN_MAX_POOL : PF_XNN_AVG_POOL);
  if (!n) return oom(b);
  const pc_gvalue *sv = &g->values[gn->args[2]];
  int32_t k = gn->args[1], s = sv->u.ints.len ? gn->args[2] : k, pd = gn->args[3];
  uint32_t ph = (uint32_t)ints_at(g, pd, 0), pw = (uint32_t)ints_at(g, pd, 1);
  const uint32_t p[10] = {ph, pw, ph, pw, (uint32_t)ints_at(g, k, 0), (uint32_t)ints_at(g, k, 1),
                          (uint32_t)ints_at(g, s, 0), (uint32_t)ints_at(g, s, 1),
                          max ? (uint32_t)ints_at(g, gn->args[4], 0) : 0,
                          max ? (uint32_t)ints_at(g, gn->args[4], 1) : 0};
  memcpy(n->p, p, sizeof p);
  n->in[0] = (uint32_t)in;
  n->flags = PF_XNN_FLAG_KEEP_DIMS;
  return finish_as(b, n, y, NHWC, false, q);
}

static ptera_status global_avg(xb *b, const pc_gnode *gn) {
  int32_t x = gn->args[0], y = gn->args[gn->nargs - 1];
  bool q = static_q(b) && has_q(b, x) && qparams(b, y);
  int32_t in = operand(b, x, NHWC, q);
  if (in < 0) return b->g->err.status;
  pc_xnn_node_desc *n = new_node(b, PF_XNN_GLOBAL_AVG_POOL);
  if (!n) return oom(b);
  n->in[0] = (uint32_t)in;
  n->flags = PF_XNN_FLAG_KEEP_DIMS;
  return finish_as(b, n, y, NHWC, false, q);
}

static ptera_status reshape(xb *b, const pc_gnode *gn) {
  int32_t y = gn->args[gn->nargs - 1];
  const pc_gtensor *t = tensor_of(b->g, y);
  bool q = moves_q(b, gn->args[0], y);
  int32_t in = operand(b, gn->args[0], NCHW, q);
  if (in < 0) return b->g->err.status;
  uint32_t *shape = pt_arena_array(&b->g->arena, t->dim ? t->dim : 1, sizeof *shape, 4);
  pc_xnn_node_desc *n = shape ? new_node(b, PF_XNN_STATIC_RESHAPE) : NULL;
  if (!n) return oom(b);
  shape[0] = 1;
  for (uint32_t i = 0; i < t->dim; i++) shape[i] = (uint32_t)t->sizes[i];
  n->p[0] = t->dim ? t->dim : 1;
  n->v0 = shape;
  n->n0 = t->dim ? t->dim : 1;
  n->in[0] = (uint32_t)in;
  ptera_status st = finish_as(b, n, y, NCHW, false, q);
  /* a clamp after the reshape of a node's only use still folds into that
   * node (clamping commutes with a reshape): addmm -> view -> relu */
  int32_t x = gn->args[0];
  if (st == PTERA_OK && !q && b->fusable[x] >= 0 && b->c->reads[x] == 1 && !b->c->m.is_output[x])
    b->fusable[y] = b->fusable[x];
  return st;
}

static ptera_status permute(xb *b, const pc_gnode *gn) {
  const pc_graph *g = b->g;
  uint32_t r = tensor_of(g, gn->args[0])->dim;
  int32_t y = gn->args[gn->nargs - 1];
  bool q = moves_q(b, gn->args[0], y);
  int32_t in = operand(b, gn->args[0], NCHW, q);
  if (in < 0) return g->err.status;
  uint32_t *perm = pt_arena_array(&b->g->arena, r ? r : 1, sizeof *perm, 4);
  if (!perm) return oom(b);
  for (uint32_t i = 0; i < r; i++) perm[i] = i;
  if (strcmp(gn->op, "aten::t_copy.out") == 0) {
    if (r == 2) perm[0] = 1, perm[1] = 0;
  } else if (strcmp(gn->op, "aten::transpose_copy.int_out") == 0) {
    int64_t d0 = g->values[gn->args[1]].u.i, d1 = g->values[gn->args[2]].u.i;
    uint32_t a = (uint32_t)(d0 < 0 ? d0 + r : d0), c = (uint32_t)(d1 < 0 ? d1 + r : d1);
    perm[a] = c;
    perm[c] = a;
  } else {
    for (uint32_t i = 0; i < r; i++) {
      int64_t d = ints_at(g, gn->args[1], i);
      perm[i] = (uint32_t)(d < 0 ? d + r : d);
    }
  }
  pc_xnn_node_desc *n = new_node(b, r < 2 ? PF_XNN_COPY : PF_XNN_STATIC_TRANSPOSE);
  if (!n) return oom(b);
  if (r >= 2) {
    n->p[0] = r;
    n->v0 = perm;
    n->n0 = r;
  }
  n->in[0] = (uint32_t)in;
  return finish_as(b, n, y, NCHW, false, q);
}

/* Whether a cat can read x as qint8: XNNPACK's qint8 Concatenate needs
 * every input's parameters to be its output's, so x must be the fresh
 * qint8 output of a convolution or linear layer of this partition (a clamp
 * folded in allowed) that nothing but the cat reads, whose parameters the
 * cat then chooses (upstream's shared quantization spec for cat). */
static bool cat_joins_q(const xb *b, int32_t x) {
  const pc_xnn_ctx *c = b->c;
  return b->free_q[x] && c->reads[x] == 1 && !c->m.is_output[x] &&
         c->m.class_size[pc_graph_alias_root(b->g, x)] == 1 && (b->idq[0][x] < 0) != (b->idq[1][x] < 0);
}

/* x's qint8 value takes y's parameters (cat_joins_q(x) holds). */
static void take_params(xb *b, int32_t x, int32_t y) {
  pc_xnn_value_desc *v = &b->vals[b->idq[b->idq[0][x] < 0][x]];
  v->scale = b->qscale[y];
  v->zero_point = b->qzp[y];
  share_q(b, y, x);
  b->free_q[x] = 0;
}

/* cat in qint8 when it may run quantized (static_q), has parameters of its
 * own and every input joins so (cat_joins_q); else in fp32. */
static ptera_status cat(xb *b, const pc_gnode *gn) {
  const pc_graph *g = b->g;
  const pc_gvalue *l = &g->values[gn->args[0]];
  int32_t y = gn->args[2];
  int64_t d = g->values[gn->args[1]].u.i, r = tensor_of(g, y)->dim;
  static const uint8_t kinds[6] = {0, 0, PF_XNN_CONCAT2, PF_XNN_CONCAT3, PF_XNN_CONCAT4,
                                   PF_XNN_CONCAT5};
  bool q = static_q(b) && qparams(b, y);
  for (uint32_t i = 0; i < l->u.tensors.len && q; i++) q = cat_joins_q(b, l->u.tensors.ids[i]);
  uint32_t ids[5];
  for (uint32_t i = 0; i < l->u.tensors.len; i++) {
    if (q) take_params(b, l->u.tensors.ids[i], y);
    int32_t id = operand(b, l->u.tensors.ids[i], NCHW, q);
    if (id < 0) return g->err.status;
    ids[i] = (uint32_t)id;
  }
  pc_xnn_node_desc *n = new_node(b, kinds[l->u.tensors.len]);
  if (!n) return oom(b);
  n->p[0] = (uint32_t)(d < 0 ? d + r : d);
  memcpy(n->in, ids, l->u.tensors.len * sizeof *ids);
  return finish_as(b, n, y, NCHW, false, q);
}

static ptera_status two_operand(xb *b, const pc_gnode *gn, uint8_t kind) {
  int32_t a = get(b, gn->args[0], NCHW), c = a < 0 ? -1 : get(b, gn->args[1], NCHW);
  if (a < 0 || c < 0) return b->g->err.status;
  pc_xnn_node_desc *n = new_node(b, kind);
  if (!n) return oom(b);
  n->in[0] = (uint32_t)a;
  n->in[1] = (uint32_t)c;
  return finish(b, n, gn->args[2], NCHW, false);
}

/* x op s for a number s (add/sub: s * alpha) as a binary node with a [1]
 * constant. */
static ptera_status scalar_binary(xb *b, const pc_gnode *gn, uint8_t kind, bool alpha) {
  const pc_graph *g = b->g;
  int32_t x = gn->args[0];
  int l = operand_layout(b, x);
  float *d = (float *)scratch_copy(b, sizeof(float));
  if (!d) return oom(b);
  *d = (float)(scalar(g, gn->args[1], 0) * (alpha ? scalar(g, gn->args[2], 1) : 1));
  pc_gtensor one;
  memset(&one, 0, sizeof one);
  one.dtype = PTERA_DTYPE_FLOAT;
  one.dim = 1;
  one.sizes[0] = 1;
  one.nbytes = sizeof(float);
  int32_t in = get(b, x, l), c = in < 0 ? -1 : const_value(b, &one, NCHW, (const uint8_t *)d);
  if (in < 0) return g->err.status;
  if (c < 0) return oom(b);
  pc_xnn_node_desc *n = new_node(b, kind);
  if (!n) return oom(b);
  n->in[0] = (uint32_t)in;
  n->in[1] = (uint32_t)c;
  return finish(b, n, gn->args[gn->nargs - 1], l, true);
}

/* out = x[start : start + out.sizes[d]] along dim d, as a StaticSlice. */
static ptera_status slice_to(xb *b, int32_t in, const pc_gtensor *x, uint32_t d, int64_t start,
                             int32_t out, bool q) {
  const pc_gtensor *y = tensor_of(b->g, out);
  uint32_t *v = pt_arena_array(&b->g->arena, 2 * (size_t)x->dim, sizeof *v, 4);
  pc_xnn_node_desc *n = v ? new_node(b, PF_XNN_STATIC_SLICE) : NULL;
  if (!n) return oom(b);
  for (uint32_t i = 0; i < x->dim; i++) {
    v[i] = i == d ? (uint32_t)start : 0;
    v[x->dim + i] = (uint32_t)y->sizes[i];
  }
  n->p[0] = x->dim;
  n->v0 = v;
  n->n0 = x->dim;
  n->v1 = v + x->dim;
  n->n1 = x->dim;
  n->in[0] = (uint32_t)in;
  return finish_as(b, n, out, NCHW, false, q);
}

static ptera_status slice(xb *b, const pc_gnode *gn) {
  const pc_graph *g = b->g;
  const pc_gtensor *x = tensor_of(g, gn->args[0]);
  bool q = moves_q(b, gn->args[0], gn->args[5]);
  int32_t in = operand(b, gn->args[0], NCHW, q);
  if (in < 0) return g->err.status;
  int64_t d = g->values[gn->args[1]].u.i, start = 0;
  if (d < 0) d += x->dim;
  if (g->values[gn->args[2]].kind == PC_G_INT) start = g->values[gn->args[2]].u.i;
  if (start < 0) start += x->sizes[d];
  if (start < 0) start = 0;
  return slice_to(b, in, x, (uint32_t)d, start, gn->args[5], q);
}

/* split_copy: one StaticSlice per piece. */
static ptera_status split(xb *b, const pc_gnode *gn) {
  const pc_graph *g = b->g;
  const pc_gtensor *x = tensor_of(g, gn->args[0]);
  const pc_gvalue *l = &g->values[gn->args[3]];
  bool q = static_q(b) && has_q(b, gn->args[0]);
  int32_t in = operand(b, gn->args[0], NCHW, q);
  if (in < 0) return g->err.status;
  int64_t d = g->values[gn->args[2]].u.i, at = 0;
  if (d < 0) d += x->dim;
  for (uint32_t i = 0; i < l->u.tensors.len; i++) {
    int32_t t = l->u.tensors.ids[i];
    if (q) share_q(b, gn->args[0], t);
    ptera_status st = slice_to(b, in, x, (uint32_t)d, at, t, q);
    if (st != PTERA_OK) return st;
    at += tensor_of(g, t)->sizes[d];
  }
  return PTERA_OK;
}

static ptera_status node(xb *b, const pc_gnode *gn) {
  const pc_graph *g = b->g;
  const char *op = gn->op;
  static const struct { const char *op; uint8_t kind; } unaries[] = {
      {"aten::sigmoid.out", PF_XNN_SIGMOID}, {"aten::tanh.out", PF_XNN_TANH},
      {"aten::exp.out", PF_XNN_EXP},         {"aten::log.out", PF_XNN_LOG},
      {"aten::neg.out", PF_XNN_NEGATE},      {"aten::abs.out", PF_XNN_ABS},
      {"aten::sqrt.out", PF_XNN_SQRT},       {"aten::rsqrt.out", PF_XNN_RSQRT},
      {"aten::floor.out", PF_XNN_FLOOR},     {"aten::ceil.out", PF_XNN_CEILING},
      {"aten::gelu.out", PF_XNN_GELU}};
  static const struct { const char *op; uint8_t kind; } binaries[] = {
      {"aten::add.out", PF_XNN_ADD}, {"aten::sub.out", PF_XNN_SUBTRACT},
      {"aten::mul.out", PF_XNN_MULTIPLY}, {"aten::div.out", PF_XNN_DIV}};
  if (strcmp(op, "aten::convolution.out") == 0) return conv(b, gn);
  if (strcmp(op, "aten::mm.out") == 0) return fully_connected(b, gn, 0);
  if (strcmp(op, "aten::linear.out") == 0) return fully_connected(b, gn, 1);
  if (strcmp(op, "aten::addmm.out") == 0) return fully_connected(b, gn, 2);
  for (size_t i = 0; i < sizeof binaries / sizeof *binaries; i++)
    if (strcmp(op, binaries[i].op) == 0) return binary(b, gn, binaries[i].kind);
  for (size_t i = 0; i < sizeof unaries / sizeof *unaries; i++)
    if (strcmp(op, unaries[i].op) == 0) return unary(b, gn, unaries[i].kind);
  if (strcmp(op, "aten::add.Scalar_out") == 0) return scalar_binary(b, gn, PF_XNN_ADD, true);
  if (strcmp(op, "aten::sub.Scalar_out") == 0) return scalar_binary(b, gn, PF_XNN_SUBTRACT, true);
  if (strcmp(op, "aten::mul.Scalar_out") == 0) return scalar_binary(b, gn, PF_XNN_MULTIPLY, false);
  if (strcmp(op, "aten::div.Scalar_out") == 0) return scalar_binary(b, gn, PF_XNN_DIV, false);
  if (strcmp(op, "aten::pow.Tensor_Scalar_out") == 0) return unary(b, gn, PF_XNN_SQUARE);
  if (strcmp(op, "aten::clone.out") == 0) return unary(b, gn, PF_XNN_COPY);
  if (strcmp(op, "aten::slice_copy.Tensor_out") == 0) return slice(b, gn);
  if (strcmp(op, "aten::split_copy.Tensor_out") == 0) return split(b, gn);
  if (strcmp(op, "aten::relu.out") == 0) return clamp(b, gn, 0.0f, INFINITY);
  if (strcmp(op, "aten::hardtanh.out") == 0 || strcmp(op, "aten::clamp.out") == 0)
    return clamp(b, gn, (float)scalar(g, gn->args[1], -INFINITY),
                 (float)scalar(g, gn->args[2], INFINITY));
  if (strcmp(op, "aten::max_pool2d_with_indices.out") == 0) return pool(b, gn, true);
  if (strcmp(op, "aten::avg_pool2d.out") == 0) return pool(b, gn, false);
  if (strcmp(op, "aten::mean.out") == 0 || strcmp(op, "aten::_adaptive_avg_pool2d.out") == 0)
    return global_avg(b, gn);
  if (strcmp(op, "aten::view_copy.out") == 0 || strncmp(op, "aten::squeeze_copy.", 19) == 0 ||
      strcmp(op, "aten::unsqueeze_copy.out") == 0 || strcmp(op, "aten::expand_copy.out") == 0)
    return reshape(b, gn);
  if (strcmp(op, "aten::permute_copy.out") == 0 || strcmp(op, "aten::transpose_copy.int_out") == 0 ||
      strcmp(op, "aten::t_copy.out") == 0)
    return permute(b, gn);
  if (strcmp(op, "aten::_softmax.out") == 0) return unary(b, gn, PF_XNN_SOFTMAX);
  if (strcmp(op, "aten::bmm.out") == 0) return two_operand(b, gn, PF_XNN_BMM);
  if (strcmp(op, "aten::cat.out") == 0) return cat(b, gn);
  return pt_fail(&b->g->err, PTERA_INTERNAL, "XNNPACK lowering of '%s': no node for '%s'",
                 b->g->name, op);
}

/* Flags the partition's inputs and outputs and numbers them (inputs first,
 * in the partition's order, only those the blob reads; then the outputs),
 * the DelegateCall's arguments in the same order. */
static ptera_status externals(xb *b, const pc_part *p, int32_t *args, uint32_t *nin) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < p->ninputs; i++) {
    int32_t v = p->inputs[i], id = b->id[b->c->handoff[v] ? NHWC : NCHW][v];
    if (id < 0 || !(b->vals[id].flags & PF_XNN_VALUE_INPUT)) continue; /* unread */
    b->vals[id].external_id = k;
    args[k++] = v;
  }
  *nin = k;
  for (uint32_t i = 0; i < p->noutputs; i++) {
    int32_t v = p->outputs[i];
    int l = b->c->handoff[v] ? NHWC : NCHW;
    if (tensor_of(b->g, v)->dim != 4) l = NCHW;
    if (b->id[l][v] < 0 && (b->id[!l][v] >= 0 || has_q(b, v)) && get(b, v, l) < 0)
      return b->g->err.status;
    int32_t id = b->id[l][v];
    if (id < 0) return fail(b, "a partition output is never written", v);
    if (b->vals[id].flags) return fail(b, "a delegate output is also an input or output", v);
    b->vals[id].flags = PF_XNN_VALUE_OUTPUT;
    b->vals[id].external_id = k;
    args[k++] = v;
  }
  return PTERA_OK;
}

/* XNNPACK refuses a quantized convolution or fully connected node whose
 * requantization scale s_in * s_w / s_out reaches 256 (XNNPACK.md 8.1). */
static ptera_status requant_limits(xb *b) {
  for (uint32_t i = 0; i < b->nnodes; i++) {
    const pc_xnn_node_desc *n = &b->nodes[i];
    if (n->kind != PF_XNN_CONV2D && n->kind != PF_XNN_DEPTHWISE_CONV2D &&
        n->kind != PF_XNN_FULLY_CONNECTED)
      continue;
    const pc_xnn_value_desc *o = &b->vals[n->out[0]], *w = &b->vals[n->in[1]];
    if (o->datatype != PF_XNN_DT_QINT8) continue;
    for (uint32_t c = 0; c < w->nscales; c++) {
      float r = b->vals[n->in[0]].scale * w->scales[c] / o->scale;
      if (r < 256.0f) continue;
      return pt_fail(&b->g->err, PTERA_NOT_SUPPORTED,
                     "node %u ('%s'): int8-static requantization scale %g (input scale x weight "
                     "scale / output scale, channel %u) reaches XNNPACK's limit of 256; its "
                     "output range is too narrow for its input and weights",
                     b->src[i], b->g->nodes[b->src[i]].op, (double)r, c);
    }
  }
  return PTERA_OK;
}

/* Puts value v's maps back to their defaults. */
static void reset(void *ctx, int32_t v, bool written) {
  (void)written;
  xb *b = ctx;
  b->id[0][v] = b->id[1][v] = b->fusable[v] = b->idq[0][v] = b->idq[1][v] = -1;
  b->native[v] = -1;
  b->input[v] = b->qset[v] = b->free_q[v] = 0;
}

ptera_status pc_xnn_build(pc_xnn_ctx *c, const pc_part *p, const uint8_t **blob,
                          size_t *blob_size, int32_t *args, uint32_t *nin) {
  pc_graph *g = c->g;
  xb b;
  memset(&b, 0, sizeof b);
  b.c = c;
  b.g = g;
  size_t nv = g->nvalues ? g->nvalues : 1;
  b.id[0] = c->maps;
  b.id[1] = b.id[0] + nv;
  b.fusable = b.id[1] + nv;
  b.idq[0] = b.fusable + nv;
  b.idq[1] = b.idq[0] + nv;
  b.qscale = (float *)(b.idq[1] + nv);
  b.qzp = (int32_t *)(b.qscale + nv);
  b.native = (int8_t *)(b.qzp + nv);
  b.input = (uint8_t *)(b.native + nv);
  b.qset = b.input + nv;
  b.free_q = b.qset + nv;
  for (uint32_t i = 0; i < p->ninputs; i++) b.input[p->inputs[i]] = 1;
  ptera_status st = PTERA_OK;
  for (uint32_t i = 0; i < p->nnodes && st == PTERA_OK; i++) {
    b.cur = p->nodes[i];
    st = node(&b, &g->nodes[p->nodes[i]]);
  }
  if (st == PTERA_OK) st = requant_limits(&b);
  if (st == PTERA_OK) st = externals(&b, p, args, nin);
  uint8_t *out = NULL;
  size_t size = 0;
  if (st == PTERA_OK) {
    st = pc_xnn_emit(b.vals, b.nvals, b.nodes, b.nnodes, *nin + p->noutputs, g->allocator, &out,
                     &size);
    if (st != PTERA_OK)
      pt_fail(&g->err, st, "cannot write the XNNPACK blob of a partition of '%s'", g->name);
  }
  if (st == PTERA_OK) {
    uint8_t *copy = pt_arena_alloc(&g->arena, size, 16);
    if (!copy) st = oom(&b);
    else memcpy(copy, out, size), *blob = copy, *blob_size = size;
  }
  pt_free(g->allocator, out);
  /* Every value the build touched is an argument of the partition's calls
   * (or an item of one). */
  for (uint32_t i = 0; i < p->nnodes; i++) pc_graph_visit_args(g, &g->nodes[p->nodes[i]], reset, &b);
  return st;
}

/* Conv2d on NHWC float (XNNPACK.md §7, §8), and the checks it shares with
 * DepthwiseConv2d (node_dwconv2d.c). Field p[]: padding t,r,b,l; kernel h,w;
 * subsampling (stride) h,w; dilation h,w; group input/output channels;
 * groups.
 *
 * NHWC makes a convolution a product per group on the shared GEMM
 * (kernels/cpu/gemm.h): C[pixels, gOC] = A[pixels, kh*kw*gIC] * B with
 * B[(ky, kx, i), o] = W[g*gOC + o, ky, kx, i] packed once at init. A is the
 * input itself for a 1x1 stride-1 unpadded convolution, otherwise gathered
 * (im2col) a tile of output pixels at a time into each thread's slice of
 * the scratch; tiles are split over the thread pool. */
#include <math.h>

#include "cpu/gemm.h"
#include "xnnpack/xnn.h"

#define CONV_TILE_BYTES ((size_t)192 << 10) /* gathered A per thread (fits L2) */

typedef struct geom {
  size_t N, IH, IW, IC, OH, OW, OC, kh, kw, sh, sw, dh, dw, pt, pl, groups, gic, goc;
  float lo, hi;
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
  q->OH = g->v[n->out[0]].dims[1]; /* the output's shape as reshape last set it */
  q->OW = g->v[n->out[0]].dims[2];
  q->lo = n->out_min;
  q->hi = n->out_max;
}

/* Output extent of one spatial dim; false when the window does not fit. */
static bool out_extent(size_t in, size_t pad, size_t k, size_t stride, size_t dil, size_t *out) {
  size_t eff = dil * (k - 1) + 1;
  if (in + pad < eff) return false;
  *out = (in + pad - eff) / stride + 1;
  return true;
}

typedef struct conv_state {
  const char *packed; /* per group B, stride apart */
  size_t stride;
  float *bias;        /* fp32, or NULL */
} conv_state;

static bool is_direct(const pf_xnn_node *n) {
  return n->p[4] == 1 && n->p[5] == 1 && n->p[6] == 1 && n->p[7] == 1 && !n->p[0] && !n->p[1] && !n->p[2] &&
         !n->p[3];
}

/* One group's product over rows [m0, m0 + M) of the output pixels, A read
 * at a with row stride lda. */
static pk_gemm_f32_args conv_args(const geom *q, const conv_state *s, size_t grp, size_t M, const float *a,
                                  size_t lda, float *c) {
  pk_gemm_f32_args r;
  memset(&r, 0, sizeof r);
  r.M = M;
  r.N = q->goc;
  r.K = q->kh * q->kw * q->gic;
  r.a = (pk_f32_operand){a, lda, 1, NULL};
  r.b = (pk_f32_operand){NULL, r.N, 1, s ? s->packed + grp * s->stride : NULL};
  r.bias_n = s && s->bias ? s->bias + grp * q->goc : NULL;
  r.c = c;
  r.ldc = q->OC;
  r.min = -INFINITY;
  r.max = INFINITY;
  return r;
}

static size_t al64(size_t x) { return (x + 63) & ~(size_t)63; }

/* Output pixels per gathered tile (at most all of them). */
static size_t tile_rows(const geom *q) {
  size_t K = q->kh * q->kw * q->gic, t = CONV_TILE_BYTES / sizeof(float) / (K ? K : 1);
  size_t P = q->N * q->OH * q->OW;
  t = t < 16 ? 16 : t & ~(size_t)15;
  return P && P < t ? P : t;
}

/* Bytes of one thread's slice: the gathered tile, then its GEMM's share. */
static size_t slice_bytes(const geom *q, const conv_state *s) {
  size_t K = q->kh * q->kw * q->gic, T = tile_rows(q);
  pk_gemm_f32_args a = conv_args(q, s, 0, T, NULL, K, NULL);
  return al64(T * K * sizeof(float)) + al64(pk_gemm_f32_workspace(&a, 1));
}

static size_t conv_ws(px_graph *g, const pf_xnn_node *n) {
  geom q;
  get_geom(g, n, &q);
  const conv_state *s = g->state[g->cur];
  if (is_direct(n)) {
    pk_gemm_f32_args a = conv_args(&q, s, 0, q.N * q.IH * q.IW, NULL, q.IC, NULL);
    return pk_gemm_f32_workspace(&a, px_threads(g));
  }
  if (q.kh * q.kw > SIZE_MAX / 4 / q.gic / tile_rows(&q)) return SIZE_MAX;
  return slice_bytes(&q, s) * px_threads(g);
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
  st = px_set_shape(g, o, dims, 4);
  if (st != PTERA_OK) return st;
  return dw ? px_dwconv2d_need_ws(g, n) : px_need_ws(g, conv_ws(g, n));
}

ptera_status px_conv2d_prepare(px_graph *g, const pf_xnn_node *n) {
  geom q;
  get_geom(g, n, &q);
  const px_value *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  size_t K = q.kh * q.kw * q.gic;
  conv_state *s = px_packed_alloc(g, sizeof *s);
  if (!s) return PTERA_MEMORY_ALLOCATION_FAILED;
  s->stride = al64(pk_gemm_f32_pack_b_size(K, q.goc));
  char *p = px_packed_alloc(g, s->stride * q.groups);
  const float *wf = p ? px_const_f32(g, w) : NULL;
  if (!wf) return PTERA_MEMORY_ALLOCATION_FAILED;
  for (size_t grp = 0; grp < q.groups; grp++) /* B(k, o) = W[grp*gOC + o][k] */
    pk_gemm_f32_pack_b(K, q.goc, wf + grp * q.goc * K, 1, K, p + grp * s->stride);
  px_f32_release(g, w, wf);
  s->packed = p;
  if (b) {
    const float *bf = px_const_f32(g, b);
    s->bias = bf ? px_packed_alloc(g, q.OC * sizeof(float)) : NULL;
    if (s->bias) memcpy(s->bias, bf, q.OC * sizeof(float));
    px_f32_release(g, b, bf);
    if (!s->bias) return PTERA_MEMORY_ALLOCATION_FAILED;
  }
  g->state[g->cur] = s;
  return PTERA_OK;
}

typedef struct conv_job {
  geom q;
  const conv_state *s;
  const float *x;
  float *y;
  char *ws;
  size_t slice, tile, ntiles, grain;
} conv_job;

/* Gathers output pixels [m0, m0 + T) of group grp: row m holds, for each
 * tap (ky, kx), the gIC input channels it reads (zeros outside the input). */
static void gather(const conv_job *j, size_t grp, size_t m0, size_t T, float *a) {
  const geom *q = &j->q;
  size_t gic = q->gic;
  for (size_t m = m0; m < m0 + T; m++) {
    size_t ox = m % q->OW, oy = (m / q->OW) % q->OH, b = m / (q->OW * q->OH);
    for (size_t ky = 0; ky < q->kh; ky++) {
      size_t iy = oy * q->sh + ky * q->dh;
      bool row_in = iy >= q->pt && iy - q->pt < q->IH;
      for (size_t kx = 0; kx < q->kw; kx++, a += gic) {
        size_t ix = ox * q->sw + kx * q->dw;
        if (!row_in || ix < q->pl || ix - q->pl >= q->IW) {
          memset(a, 0, gic * sizeof *a);
          continue;
        }
        memcpy(a, j->x + ((b * q->IH + iy - q->pt) * q->IW + ix - q->pl) * q->IC + grp * gic, gic * sizeof *a);
      }
    }
  }
}

static void conv_task(void *arg, size_t begin, size_t end) {
  const conv_job *j = arg;
  const geom *q = &j->q;
  char *slice = j->ws + (begin / j->grain) * j->slice;
  size_t K = q->kh * q->kw * q->gic, P = q->N * q->OH * q->OW;
  float *a = (float *)slice;
  void *gws = slice + al64(j->tile * K * sizeof(float));
  for (size_t item = begin; item < end; item++) {
    size_t grp = item / j->ntiles, m0 = (item % j->ntiles) * j->tile;
    size_t T = P - m0 < j->tile ? P - m0 : j->tile;
    gather(j, grp, m0, T, a);
    pk_gemm_f32_args r = conv_args(q, j->s, grp, T, a, K, j->y + m0 * q->OC + grp * q->goc);
    r.min = j->q.lo;
    r.max = j->q.hi;
    pk_gemm_f32_run(&r, gws, NULL);
  }
}

void px_conv2d_run(px_graph *g, const pf_xnn_node *n) {
  conv_job j;
  get_geom(g, n, &j.q);
  const px_value *o = &g->v[n->out[0]];
  j.s = g->state[g->cur];
  j.x = g->v[n->in[0]].data;
  j.y = o->data;
  size_t P = j.q.N * j.q.OH * j.q.OW;
  if (P == 0) return;
  if (is_direct(n)) {
    for (size_t grp = 0; grp < j.q.groups; grp++) {
      pk_gemm_f32_args r = conv_args(&j.q, j.s, grp, P, j.x + grp * j.q.gic, j.q.IC, j.y + grp * j.q.goc);
      r.min = j.q.lo;
      r.max = j.q.hi;
      pk_gemm_f32_run(&r, px_ws(g), px_kctx(g));
    }
    return;
  }
  size_t nthreads = ptera_kernel_thread_count(px_kctx(g));
  j.ws = px_ws(g);
  j.slice = slice_bytes(&j.q, j.s);
  j.tile = tile_rows(&j.q);
  j.ntiles = (P + j.tile - 1) / j.tile;
  size_t items = j.q.groups * j.ntiles;
  j.grain = (items + nthreads - 1) / nthreads;
  ptera_kernel_parallel_for(px_kctx(g), items, j.grain, conv_task, &j);
}

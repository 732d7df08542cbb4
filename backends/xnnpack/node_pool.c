/* AvgPooling2d, MaxPooling2d, ArgMaxPooling2d on NHWC fp32 (docs/XNNPACK.md §8).
 * p[]: padding t,r,b,l; pooling h,w; stride h,w; dilation h,w (ArgMax: only
 * padding and pooling size; stride = pooling size). Average and max pooling
 * between NCHW-resident values (xnn_residency.c) run on the planes through
 * the CPU path's pooling (kernels/cpu/pool2d.h; max pooling without
 * indices). */
#include <math.h>

#include "cpu/pool2d.h"
#include "xnnpack/xnn.h"

typedef struct win {
  size_t ph, pw, sh, sw, dh, dw, pt, pl;
} win;

static void get_win(const pf_xnn_node *n, win *w) {
  w->pt = n->p[0];
  w->pl = n->p[3];
  w->ph = n->p[4];
  w->pw = n->p[5];
  if (n->kind == PF_XNN_ARGMAX_POOL) {
    w->sh = w->ph;
    w->sw = w->pw;
    w->dh = w->dw = 1;
    return;
  }
  w->sh = n->p[6];
  w->sw = n->p[7];
  w->dh = n->kind == PF_XNN_MAX_POOL && n->p[8] ? n->p[8] : 1; /* average pooling has no dilation */
  w->dw = n->kind == PF_XNN_MAX_POOL && n->p[9] ? n->p[9] : 1;
}

ptera_status px_pool_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st == PTERA_OK && n->kind == PF_XNN_ARGMAX_POOL) st = px_want_dt(g, &g->v[n->out[1]], PF_XNN_DT_INT32, "index output");
  if (st != PTERA_OK) return st;
  if (x->ndims != 4) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank %u, not 4 (NHWC)", (unsigned)x->ndims);
  win w;
  get_win(n, &w);
  if (!w.ph || !w.pw || !w.sh || !w.sw || w.ph > 65536 || w.pw > 65536 || w.sh > 65536 || w.sw > 65536 ||
      w.dh > 65536 || w.dw > 65536 || n->p[0] > 65536 || n->p[1] > 65536 || n->p[2] > 65536 || n->p[3] > 65536)
    return px_fail(g, PTERA_INVALID_PROGRAM, "pooling size and stride must be 1..65536");
  size_t eh = w.dh * (w.ph - 1) + 1, ew = w.dw * (w.pw - 1) + 1;
  size_t H = x->dims[1] + n->p[0] + n->p[2], W = x->dims[2] + n->p[1] + n->p[3];
  if (H < eh || W < ew) return px_fail(g, PTERA_INVALID_ARGUMENT, "the input is smaller than the pooling window");
  size_t dims[4] = {x->dims[0], (H - eh) / w.sh + 1, (W - ew) / w.sw + 1, x->dims[3]};
  st = px_set_shape(g, o, dims, 4);
  if (st == PTERA_OK && n->kind == PF_XNN_ARGMAX_POOL) st = px_set_shape(g, &g->v[n->out[1]], dims, 4);
  return st;
}

/* Pools NCHW-resident planes: the same windows as pool_task, then the clamp. */
static void run_nchw(px_graph *g, const pf_xnn_node *n, const win *w) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  size_t planes = xv->dims[0] * xv->dims[3];
  if (n->kind == PF_XNN_MAX_POOL) {
    pk_maxpool2d_params p = {xv->dims[1], xv->dims[2], o->dims[1], o->dims[2], w->ph, w->pw, w->sh, w->sw,
                             w->dh,       w->dw,       w->pt,      w->pl};
    pk_maxpool2d_f32(&p, planes, xv->data, o->data, NULL, px_kctx(g));
  } else { /* padded windows count only their taps inside the input, as pool_task */
    pk_avgpool2d_params p = {xv->dims[1], xv->dims[2], o->dims[1], o->dims[2], w->ph, w->pw, w->sh, w->sw,
                             w->pt,       w->pl,       0,          0};
    pk_avgpool2d_f32(&p, planes, xv->data, o->data, px_kctx(g));
  }
  if (n->out_min == -INFINITY && n->out_max == INFINITY) return;
  float *y = o->data;
  for (size_t i = 0, cnt = px_numel(o); i < cnt; i++) y[i] = px_clampf(y[i], n->out_min, n->out_max);
}

/* ArgMaxPooling2d: per element, the first largest tap and its index. */
static void argmax_run(const px_value *xv, const px_value *o, int32_t *idx, const win *w) {
  size_t N = xv->dims[0], IH = xv->dims[1], IW = xv->dims[2], C = xv->dims[3], OH = o->dims[1], OW = o->dims[2];
  const float *x = xv->data;
  float *y = o->data;
  for (size_t b = 0; b < N; b++)
    for (size_t oy = 0; oy < OH; oy++)
      for (size_t ox = 0; ox < OW; ox++)
        for (size_t c = 0; c < C; c++) {
          float acc = -INFINITY;
          int32_t best = 0;
          size_t ky0, ky1, kx0, kx1; /* only the taps inside the input */
          bool first = true;
          px_pool_taps(oy, w->sh, w->dh, w->pt, IH, w->ph, &ky0, &ky1);
          px_pool_taps(ox, w->sw, w->dw, w->pl, IW, w->pw, &kx0, &kx1);
          for (size_t ky = ky0; ky < ky1; ky++)
            for (size_t kx = kx0; kx < kx1; kx++) {
              float v = x[((b * IH + oy * w->sh + ky * w->dh - w->pt) * IW + ox * w->sw + kx * w->dw - w->pl) * C + c];
              if (first || v > acc) {
                acc = v;
                best = (int32_t)(ky * w->pw + kx);
              }
              first = false;
            }
          size_t at = ((b * OH + oy) * OW + ox) * C + c;
          y[at] = acc;
          idx[at] = best;
        }
}

typedef struct pool_job {
  const pf_xnn_node *n;
  const float *x;
  float *y;
  size_t IH, IW, C, OH, OW;
  win w;
  bool avg, padded;
} pool_job;

/* Output rows [begin, end) over all images: per pixel, the taps inside the
 * input combined a whole channel vector at a time. */
static void pool_task(void *arg, size_t begin, size_t end) {
  const pool_job *j = arg;
  const win *w = &j->w;
  size_t C = j->C;
  float lo = j->n->out_min, hi = j->n->out_max;
  for (size_t r = begin; r < end; r++) {
    size_t b = r / j->OH, oy = r % j->OH, ky0, ky1;
    px_pool_taps(oy, w->sh, w->dh, w->pt, j->IH, w->ph, &ky0, &ky1);
    for (size_t ox = 0; ox < j->OW; ox++) {
      size_t kx0, kx1;
      px_pool_taps(ox, w->sw, w->dw, w->pl, j->IW, w->pw, &kx0, &kx1);
      float *y = j->y + (r * j->OW + ox) * C;
      for (size_t c = 0; c < C; c++) y[c] = j->avg ? 0.0f : -INFINITY;
      for (size_t ky = ky0; ky < ky1; ky++) {
        const float *row = j->x + ((b * j->IH + oy * w->sh + ky * w->dh - w->pt) * j->IW) * C;
        for (size_t kx = kx0; kx < kx1; kx++) {
          const float *v = row + (ox * w->sw + kx * w->dw - w->pl) * C;
          if (j->avg)
            for (size_t c = 0; c < C; c++) y[c] += v[c];
          else
            for (size_t c = 0; c < C; c++) y[c] = v[c] > y[c] ? v[c] : y[c];
        }
      }
      size_t count = (ky1 - ky0) * (kx1 - kx0);
      float inv = 1.0f / (float)(j->padded ? (count ? count : 1) : w->ph * w->pw);
      if (j->avg)
        for (size_t c = 0; c < C; c++) y[c] *= inv;
      for (size_t c = 0; c < C; c++) y[c] = px_clampf(y[c], lo, hi);
    }
  }
}

void px_pool_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  win w;
  get_win(n, &w);
  if (!px_numel(o)) return; /* no outputs (the loops would still walk the empty dims) */
  if (n->kind == PF_XNN_ARGMAX_POOL) {
    argmax_run(xv, o, g->v[n->out[1]].data, &w);
    return;
  }
  if (xv->nchw) {
    run_nchw(g, n, &w);
    return;
  }
  pool_job j = {n, xv->data, o->data, xv->dims[1], xv->dims[2], xv->dims[3], o->dims[1], o->dims[2], w,
                n->kind == PF_XNN_AVG_POOL, n->p[0] || n->p[1] || n->p[2] || n->p[3]};
  size_t rows = xv->dims[0] * j.OH, row = j.OW * j.C * w.ph * w.pw;
  ptera_kernel_parallel_for(px_kctx(g), rows, row && row < PX_ELEM_GRAIN ? PX_ELEM_GRAIN / row : 1, pool_task, &j);
}

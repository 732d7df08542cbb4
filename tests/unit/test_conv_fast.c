/* The f32 convolution fast path (kernels/cpu/conv2d*.c and the dwconv,
 * winograd micro-kernels) against the portable convolution kernel run in
 * double: randomized shapes across vector-tile edges (odd channel counts,
 * padding, stride, dilation, groups, depthwise 3x3/5x5 at stride 1/2,
 * transposed with output padding, several B tiles, Winograd F(2x2, 3x3)
 * and F(4x4, 3x3),
 * pixels as the product's rows, outputs of megabytes stored around the
 * caches), every available ISA forced in turn, with
 * and without an output clamp, on one thread and on pools of 2 and 3, in
 * NCHW and channels last; then aten::convolution.out itself on f32 tensors
 * (the wiring, both layouts), the per-channel scaling of packed filters,
 * and the geometry constructor's rejections. */
#include <stdlib.h>

#include "cpu/conv2d.h"
#include "cpu/conv2d_dwcl.h"
#include "cpu/conv2d_pixrows.h"
#include "cpu/conv2d_winograd.h"
#include "cpu/isa.h"
#include "kernel_test_util.h"
#include "ptera/threadpool.h"

static uint32_t rng = 12345u;
static uint32_t rnd(uint32_t n) {
  rng = rng * 1664525u + 1013904223u;
  return (rng >> 8) % n;
}
static float rndf(void) { return (float)rnd(2001) / 1000.0f - 1.0f; }

static _Alignas(64) uint8_t big_temp[1 << 20];

typedef struct tcase {
  pk_conv2d_geom g;
  bool bias;
  float min, max;
} tcase;

static size_t wnumel(const pk_conv2d_geom *g) {
  return (size_t)(g->transposed ? g->c_in * pk_conv2d_cout_g(g) : g->c_out * pk_conv2d_cin_g(g)) *
         (size_t)(g->kh * g->kw);
}

static int32_t wsize0(const pk_conv2d_geom *g) { return (int32_t)(g->transposed ? g->c_in : g->c_out); }
static int32_t wsize1(const pk_conv2d_geom *g) {
  return (int32_t)(g->transposed ? pk_conv2d_cout_g(g) : pk_conv2d_cin_g(g));
}

/* Runs aten::convolution.out on dtype dt buffers (in, weight and out in dim
 * order `order`, NULL = contiguous); out holds the result. */
static ptera_status run_op(const pk_conv2d_geom *g, int dt, void *in, void *w, void *b, void *out,
                           size_t es, const uint8_t *order) {
  const pk_conv2d_geom *q = g;
  size_t nin = (size_t)(q->n * q->c_in * q->h * q->w), nout = (size_t)(q->n * q->c_out * q->oh * q->ow);
  int32_t is[4] = {(int32_t)q->n, (int32_t)q->c_in, (int32_t)q->h, (int32_t)q->w};
  int32_t ws[4] = {wsize0(q), wsize1(q), (int32_t)q->kh, (int32_t)q->kw};
  int32_t bs[1] = {(int32_t)q->c_out};
  int32_t os[4] = {(int32_t)q->n, (int32_t)q->c_out, (int32_t)q->oh, (int32_t)q->ow};
  ptera_value *vi = kt_tensor(dt, in, nin * es, 4, is, order, PTERA_SHAPE_STATIC);
  ptera_value *vw = kt_tensor(dt, w, wnumel(q) * es, 4, ws, order, PTERA_SHAPE_STATIC);
  ptera_value *vb = b ? kt_tensor(dt, b, (size_t)q->c_out * es, 1, bs, NULL, PTERA_SHAPE_STATIC) : kt_none();
  ptera_value *vo = kt_tensor(dt, out, nout * es, 4, os, order, PTERA_SHAPE_STATIC);
  ptera_value *args[11] = {vi,
                           vw,
                           vb,
                           KT_IL(q->stride[0], q->stride[1]),
                           KT_IL(q->pad[0], q->pad[1]),
                           KT_IL(q->dil[0], q->dil[1]),
                           kt_bool(q->transposed),
                           KT_IL(q->out_pad[0], q->out_pad[1]),
                           kt_int(q->groups),
                           vo,
                           vo};
  ptera_kernel_ctx ctx;
  pt_err_clear(&kt_err);
  pr_kernel_ctx_init(&ctx, "aten::convolution.out", &kt_err, big_temp, sizeof big_temp);
  ptera_status st = kt_find("aten::convolution.out")(&ctx, args, 11);
  kt_nt = kt_nv = kt_np = 0;
  return st;
}

static size_t cases, runs, mismatches;
static ptera_threadpool *pools[2]; /* 2 and 3 threads */

/* The output scale of a reference: its largest magnitude (before any
 * clamp), at least 1. */
static double ref_scale(const double *ref, size_t n) {
  double scale = 1.0;
  for (size_t i = 0; i < n; i++) scale = fmax(scale, fabs(ref[i]));
  return scale;
}

/* The error allowed relative to the output scale on geometry g: rounding
 * of float sums, 1e-5; F(4x4, 3x3) adds its transforms' (entries up to 8,
 * so sums of terms larger than the result: about 1.5e-5 at 512 input
 * channels), still within the 1e-4 asked of every path. */
static double rel_tol(const pk_conv2d_geom *g) { return pk_conv2d_wino_tile(g) == 4 ? 5e-5 : 1e-5; }

/* Every got[i] within tol of want[i]. */
static bool close_to(const float *got, const double *want, size_t n, double tol, const char *what) {
  for (size_t i = 0; i < n; i++)
    if (!(fabs(got[i] - want[i]) <= tol)) {
      printf("  %s: [%zu] got %.9g want %.9g\n", what, i, got[i], want[i]);
      return false;
    }
  return true;
}

static void describe(const tcase *t) {
  const pk_conv2d_geom *g = &t->g;
  printf("  case n%lld c%lld %lldx%lld -> c%lld groups %lld k %lldx%lld s %lld,%lld p %lld,%lld d %lld,%lld "
         "op %lld,%lld%s%s clamp [%g, %g]\n",
         (long long)g->n, (long long)g->c_in, (long long)g->h, (long long)g->w, (long long)g->c_out,
         (long long)g->groups, (long long)g->kh, (long long)g->kw, (long long)g->stride[0],
         (long long)g->stride[1], (long long)g->pad[0], (long long)g->pad[1], (long long)g->dil[0],
         (long long)g->dil[1], (long long)g->out_pad[0], (long long)g->out_pad[1],
         g->transposed ? " transposed" : "", t->bias ? " bias" : "", t->min, t->max);
}

/* The channels-last variant of t: in [N, H, W, C], weight [C_out, kh, kw,
 * C_in/g] and out [N, oh, ow, C_out] from the NCHW buffers, each ISA (and,
 * when threaded, the pools), filters packed ahead and per call. */
static bool check_nhwc(const tcase *t, const float *in, const float *w, const float *b, const double *ref,
                       double scale, bool threaded) {
  pk_conv2d_geom g = t->g;
  g.layout = PK_CONV_NHWC;
  size_t N = (size_t)g.n, C = (size_t)g.c_in, H = (size_t)g.h, W = (size_t)g.w, CO = (size_t)g.c_out;
  size_t OH = (size_t)g.oh, OW = (size_t)g.ow, cin_g = (size_t)pk_conv2d_cin_g(&g), T = (size_t)(g.kh * g.kw);
  size_t nin = N * C * H * W, nw = CO * cin_g * T, nout = N * CO * OH * OW;
  float *xin = malloc(nin * sizeof *xin), *xw = malloc(nw * sizeof *xw), *out = malloc(nout * sizeof *out);
  double *xref = malloc(nout * sizeof *xref);
  for (size_t n = 0; n < N; n++)
    for (size_t c = 0; c < C; c++)
      for (size_t i = 0; i < H * W; i++) xin[(n * H * W + i) * C + c] = in[(n * C + c) * H * W + i];
  for (size_t o = 0; o < CO; o++)
    for (size_t c = 0; c < cin_g; c++)
      for (size_t k = 0; k < T; k++) xw[(o * T + k) * cin_g + c] = w[(o * cin_g + c) * T + k];
  for (size_t n = 0; n < N; n++)
    for (size_t o = 0; o < CO; o++)
      for (size_t i = 0; i < OH * OW; i++) xref[(n * OH * OW + i) * CO + o] = ref[(n * CO + o) * OH * OW + i];
  bool ok = true;
  CHECK(pk_conv2d_f32_supported(&g));
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    size_t pb = pk_conv2d_f32_pack_size(&g);
    void *packed = aligned_alloc(64, (pb + 63) / 64 * 64 + 64);
    pk_conv2d_f32_pack(&g, xw, packed);
    for (size_t pi = 0; pi < (threaded ? 3u : 1u); pi++) {
      ptera_threadpool *pool = pi ? pools[pi - 1] : NULL;
      size_t wb = pk_conv2d_f32_workspace(&g, ptera_threadpool_size(pool));
      CHECK(wb != SIZE_MAX && pb != SIZE_MAX);
      void *ws = aligned_alloc(64, (wb + pb + 63) / 64 * 64 + 64);
      ptera_kernel_ctx ctx;
      pt_err err;
      memset(&err, 0, sizeof err);
      pr_kernel_ctx_init(&ctx, "aten::convolution.out", &err, NULL, 0);
      ctx.pool = pool;
      for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < nout; i++) out[i] = NAN;
        pk_conv2d_f32(&g, xin, xw, pass ? packed : NULL, t->bias ? b : NULL, out, t->min, t->max, ws, &ctx);
        runs++;
        if (!close_to(out, xref, nout, scale * rel_tol(&g), "channels last")) ok = false;
      }
      free(ws);
    }
    free(packed);
  }
  pk_isa_force(PK_ISA_COUNT);
  if (t->min == -INFINITY && t->max == INFINITY && g.n * g.c_in * g.h * g.w > 0) { /* the op wrapper */
    static const uint8_t cl[4] = {0, 2, 3, 1};
    for (size_t i = 0; i < nout; i++) out[i] = NAN;
    CHECK(run_op(&t->g, PTERA_DTYPE_FLOAT, xin, xw, t->bias ? (void *)b : NULL, out, sizeof(float), cl) ==
          PTERA_OK);
    if (!close_to(out, xref, nout, scale * rel_tol(&g), "aten::convolution.out channels last")) ok = false;
  }
  free(xin), free(xw), free(out), free(xref);
  return ok;
}

/* pk_conv2d_f32_pack_scale: filters packed, output channels scaled in two
 * calls (split at a random channel), against the portable kernel on
 * filters scaled before the convolution; NCHW and channels last, each ISA. */
static bool check_scaled(const tcase *t, const float *in, const float *w, const float *b) {
  const pk_conv2d_geom *g = &t->g;
  size_t nin = (size_t)(g->n * g->c_in * g->h * g->w), nw = wnumel(g), CO = (size_t)g->c_out;
  size_t nout = (size_t)(g->n * g->c_out * g->oh * g->ow), per = nw / CO, P = (size_t)(g->oh * g->ow);
  size_t C = (size_t)g->c_in, HW = (size_t)(g->h * g->w), T = (size_t)(g->kh * g->kw), cin_g = per / T;
  double *sc = malloc(CO * sizeof *sc), *din = malloc(nin * sizeof *din), *dws = malloc(nw * sizeof *dws);
  double *db = malloc(CO * sizeof *db), *ref = malloc(nout * sizeof *ref), *xref = malloc(nout * sizeof *xref);
  float *xin = malloc(nin * sizeof *xin), *xw = malloc(nw * sizeof *xw), *out = malloc(nout * sizeof *out);
  for (size_t o = 0; o < CO; o++) sc[o] = 0.25 + (double)rnd(1000) / 500.0, db[o] = b[o];
  for (size_t i = 0; i < nin; i++) din[i] = in[i];
  for (size_t i = 0; i < nw; i++) dws[i] = (double)w[i] * sc[i / per];
  CHECK(run_op(g, PTERA_DTYPE_DOUBLE, din, dws, t->bias ? db : NULL, ref, sizeof(double), NULL) == PTERA_OK);
  for (size_t n = 0; n < (size_t)g->n; n++) /* channels-last copies */
    for (size_t c = 0; c < C; c++)
      for (size_t i = 0; i < HW; i++) xin[(n * HW + i) * C + c] = in[(n * C + c) * HW + i];
  for (size_t o = 0; o < CO; o++)
    for (size_t c = 0; c < cin_g; c++)
      for (size_t k = 0; k < T; k++) xw[(o * T + k) * cin_g + c] = w[(o * cin_g + c) * T + k];
  for (size_t n = 0; n < (size_t)g->n; n++)
    for (size_t o = 0; o < CO; o++)
      for (size_t i = 0; i < P; i++) xref[(n * P + i) * CO + o] = ref[(n * CO + o) * P + i];
  bool ok = true;
  double scale = ref_scale(ref, nout);
  size_t cut = rnd((uint32_t)CO + 1);
  for (int layout = 0; layout < 2; layout++) {
    pk_conv2d_geom q = *g;
    q.layout = layout ? PK_CONV_NHWC : PK_CONV_NCHW;
    for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
      if (!pk_isa_available((pk_isa)isa)) continue;
      pk_isa_force((pk_isa)isa);
      size_t pb = pk_conv2d_f32_pack_size(&q), wb = pk_conv2d_f32_workspace(&q, 1);
      if (!pb) continue; /* a path that packs nothing: nothing to scale */
      void *packed = aligned_alloc(64, (pb + 63) / 64 * 64), *ws = aligned_alloc(64, (wb + 63) / 64 * 64 + 64);
      pk_conv2d_f32_pack(&q, layout ? xw : w, packed);
      pk_conv2d_f32_pack_scale(&q, packed, 0, cut, sc);
      pk_conv2d_f32_pack_scale(&q, packed, cut, CO - cut, sc + cut);
      for (size_t i = 0; i < nout; i++) out[i] = NAN;
      pk_conv2d_f32(&q, layout ? xin : in, layout ? xw : w, packed, t->bias ? b : NULL, out, -INFINITY, INFINITY,
                    ws, NULL);
      runs++;
      if (!close_to(out, layout ? xref : ref, nout, scale * rel_tol(&q),
                    layout ? "scaled, channels last" : "scaled"))
        ok = false;
      free(packed), free(ws);
    }
  }
  pk_isa_force(PK_ISA_COUNT);
  free(sc), free(din), free(dws), free(db), free(ref), free(xref), free(xin), free(xw), free(out);
  return ok;
}

static void check_case(tcase *t, bool threaded) {
  pk_conv2d_geom *g = &t->g;
  size_t nin = (size_t)(g->n * g->c_in * g->h * g->w), nw = wnumel(g), nout = (size_t)(g->n * g->c_out * g->oh * g->ow);
  float *in = malloc(nin * sizeof *in), *w = malloc(nw * sizeof *w), *b = malloc((size_t)g->c_out * sizeof *b);
  float *out = aligned_alloc(64, (nout * sizeof *out + 63) & ~(size_t)63); /* as a planned tensor */
  double *din = malloc(nin * sizeof *din), *dw = malloc(nw * sizeof *dw), *db = malloc((size_t)g->c_out * sizeof *db);
  double *ref = malloc(nout * sizeof *ref);
  for (size_t i = 0; i < nin; i++) din[i] = in[i] = rndf();
  for (size_t i = 0; i < nw; i++) dw[i] = w[i] = rndf();
  for (int64_t i = 0; i < g->c_out; i++) db[i] = b[i] = rndf();
  cases++;
  CHECK(run_op(g, PTERA_DTYPE_DOUBLE, din, dw, t->bias ? db : NULL, ref, sizeof(double), NULL) == PTERA_OK);
  double scale = ref_scale(ref, nout);
  for (size_t i = 0; i < nout; i++) ref[i] = fmin(fmax(ref[i], t->min), t->max);
  bool ok = true;
  CHECK(pk_conv2d_f32_supported(g));
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    size_t bytes = pk_conv2d_f32_workspace(g, 1), pbytes = pk_conv2d_f32_pack_size(g);
    CHECK(bytes != SIZE_MAX && pbytes != SIZE_MAX);
    /* the filters packed per call into the front of the workspace */
    void *ws = bytes + pbytes ? aligned_alloc(64, (bytes + pbytes + 63) & ~(size_t)63) : NULL;
    for (size_t i = 0; i < nout; i++) out[i] = NAN;
    pk_conv2d_f32(g, in, w, NULL, t->bias ? b : NULL, out, t->min, t->max, ws, NULL);
    runs++;
    if (!close_to(out, ref, nout, scale * rel_tol(g), pk_isa_name((pk_isa)isa))) ok = false;
    void *packed = pbytes ? aligned_alloc(64, (pbytes + 63) & ~(size_t)63) : NULL;
    if (pbytes) { /* with the filters packed ahead */
      pk_conv2d_f32_pack(g, w, packed);
      for (size_t i = 0; i < nout; i++) out[i] = NAN;
      pk_conv2d_f32(g, in, w, packed, t->bias ? b : NULL, out, t->min, t->max, ws, NULL);
      runs++;
      if (!close_to(out, ref, nout, scale * rel_tol(g), "packed")) ok = false;
    }
    free(ws);
    for (size_t pi = 0; pi < 2 && threaded; pi++) { /* split over a pool's threads */
      size_t nt = ptera_threadpool_size(pools[pi]), tb = pk_conv2d_f32_workspace(g, nt);
      CHECK(tb != SIZE_MAX);
      size_t tsz = (tb + pbytes + 63) & ~(size_t)63;
      void *tws = aligned_alloc(64, tsz ? tsz : 64);
      ptera_kernel_ctx ctx;
      pt_err err;
      memset(&err, 0, sizeof err);
      pr_kernel_ctx_init(&ctx, "aten::convolution.out", &err, NULL, 0);
      ctx.pool = pools[pi];
      for (int pass = 0; pass < (pbytes ? 2 : 1); pass++) { /* packed per call, then ahead */
        for (size_t i = 0; i < nout; i++) out[i] = NAN;
        pk_conv2d_f32(g, in, w, pass ? packed : NULL, t->bias ? b : NULL, out, t->min, t->max, tws, &ctx);
        runs++;
        if (!close_to(out, ref, nout, scale * rel_tol(g), pi ? "3 threads" : "2 threads")) ok = false;
      }
      free(tws);
    }
    free(packed);
  }
  /* Filters packed under one ISA keep it when the run sees another
   * (prepare runs before any forcing a test does): packed under the best,
   * run with scalar selected. */
  pk_isa_force(PK_ISA_COUNT);
  size_t xp = pk_conv2d_f32_pack_size(g);
  if (xp && pk_isa_selected() != PK_ISA_SCALAR) {
    void *packed = aligned_alloc(64, (xp + 63) / 64 * 64);
    pk_conv2d_f32_pack(g, w, packed);
    pk_isa_force(PK_ISA_SCALAR);
    size_t wb = pk_conv2d_f32_workspace(g, 1); /* as the run's selection sees it */
    void *ws = aligned_alloc(64, (wb + 63) / 64 * 64 + 64);
    for (size_t i = 0; i < nout; i++) out[i] = NAN;
    pk_conv2d_f32(g, in, w, packed, t->bias ? b : NULL, out, t->min, t->max, ws, NULL);
    runs++;
    if (!close_to(out, ref, nout, scale * rel_tol(g), "packed under another ISA")) ok = false;
    free(ws);
    free(packed);
    pk_isa_force(PK_ISA_COUNT);
  }
  if (t->min == -INFINITY && t->max == INFINITY) { /* the op wrapper, which does not clamp */
    for (size_t i = 0; i < nout; i++) out[i] = NAN;
    CHECK(run_op(g, PTERA_DTYPE_FLOAT, in, w, t->bias ? b : NULL, out, sizeof(float), NULL) == PTERA_OK);
    if (!close_to(out, ref, nout, scale * rel_tol(g), "aten::convolution.out")) ok = false;
  }
  if (!g->transposed && !check_nhwc(t, in, w, b, ref, scale, threaded)) ok = false;
  if (!g->transposed && !check_scaled(t, in, w, b)) ok = false;
  if (!ok) {
    mismatches++;
    describe(t);
  }
  CHECK(ok);
  free(in), free(w), free(b), free(out), free(din), free(dw), free(db), free(ref);
}

/* Fills the free fields of t at random (small extents) until the geometry is valid. */
static void random_case(tcase *t, bool depthwise, bool transposed) {
  static const int64_t ks[] = {1, 2, 3, 5};
  char msg[160];
  do {
    pk_conv2d_geom *g = &t->g;
    memset(g, 0, sizeof *g);
    g->n = 1 + rnd(2);
    g->transposed = transposed;
    if (depthwise) {
      g->groups = g->c_in = g->c_out = 1 + rnd(5);
      g->kh = g->kw = rnd(2) ? 5 : 3;
      g->stride[0] = g->stride[1] = 1 + rnd(2);
      g->dil[0] = g->dil[1] = 1;
      g->h = 1 + rnd(12);
      g->w = 1 + rnd(45); /* across 4, 8, 16 lanes and their stride-2 doubles */
      g->pad[0] = rnd(4);
      g->pad[1] = rnd(4);
    } else {
      g->groups = 1 + rnd(3);
      g->c_in = g->groups * (1 + rnd(5));
      g->c_out = g->groups * (1 + rnd(7));
      g->kh = ks[rnd(4)];
      g->kw = ks[rnd(4)];
      g->h = 1 + rnd(11);
      g->w = 1 + rnd(13);
      for (int i = 0; i < 2; i++) {
        g->stride[i] = 1 + rnd(3);
        g->dil[i] = 1 + rnd(2);
        g->pad[i] = rnd(3);
        if (transposed) g->out_pad[i] = rnd((uint32_t)(g->stride[i] > g->dil[i] ? g->stride[i] : g->dil[i]));
      }
      if (rnd(4) == 0) { /* 1x1 unit stride, no padding: the input is the product's operand */
        g->kh = g->kw = 1;
        g->stride[0] = g->stride[1] = 1;
        g->pad[0] = g->pad[1] = 0;
        g->transposed = false;
      }
    }
    t->bias = rnd(4) != 0;
    t->min = -INFINITY;
    t->max = INFINITY;
    if (rnd(5) == 0) {
      t->min = -0.5f;
      t->max = rnd(2) ? 0.75f : INFINITY;
    }
  } while (pk_conv2d_geom_init(&t->g, msg, sizeof msg) != PTERA_OK);
}

static void geom_rejects(void) {
  char msg[160];
  pk_conv2d_geom g = {.n = 1, .c_in = 4, .h = 5, .w = 5, .c_out = 6, .groups = 2, .kh = 3, .kw = 3,
                      .stride = {1, 1}, .pad = {0, 0}, .dil = {1, 1}};
  CHECK(pk_conv2d_geom_init(&g, msg, sizeof msg) == PTERA_OK);
  CHECK(g.oh == 3 && g.ow == 3);
  g.kh = 6; /* does not fit */
  CHECK(pk_conv2d_geom_init(&g, msg, sizeof msg) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(msg, "does not fit") != NULL);
  g.kh = 3;
  g.groups = 3; /* does not divide 4 */
  CHECK(pk_conv2d_geom_init(&g, msg, sizeof msg) == PTERA_INVALID_ARGUMENT);
  g.groups = 2;
  g.stride[1] = 0;
  CHECK(pk_conv2d_geom_init(&g, msg, sizeof msg) == PTERA_INVALID_ARGUMENT);
  g.stride[1] = 1;
  /* extreme values: no overflow, a clean rejection */
  g.transposed = true;
  g.h = g.w = INT32_MAX;
  g.stride[0] = g.stride[1] = INT32_MAX;
  g.dil[0] = g.dil[1] = INT32_MAX;
  g.kh = g.kw = INT32_MAX;
  CHECK(pk_conv2d_geom_init(&g, msg, sizeof msg) == PTERA_INVALID_ARGUMENT);
  g.stride[0] = (int64_t)INT32_MAX + 1;
  CHECK(pk_conv2d_geom_init(&g, msg, sizeof msg) == PTERA_INVALID_ARGUMENT);
  /* transposed: (5 - 1) * 2 - 2 + 1 * 2 + 1 + 1 = 10 */
  pk_conv2d_geom t = {.n = 1, .c_in = 2, .h = 5, .w = 5, .c_out = 2, .groups = 1, .kh = 3, .kw = 3,
                      .stride = {2, 2}, .pad = {1, 1}, .dil = {1, 1}, .out_pad = {1, 0}, .transposed = true};
  CHECK(pk_conv2d_geom_init(&t, msg, sizeof msg) == PTERA_OK);
  CHECK(t.oh == 10 && t.ow == 9);
  /* ceil_mode (pooling): rows ceil((5 - 2) / 2) + 1 = 3 (floor: 2); columns
   * ceil((5 + 2 - 3) / 3) + 1 = 3, but the last window would start at 6 =
   * in + pad, so 2 */
  pk_conv2d_geom p = {.n = 1, .c_in = 2, .h = 5, .w = 5, .c_out = 2, .groups = 1, .kh = 2, .kw = 3,
                      .stride = {2, 3}, .pad = {0, 1}, .dil = {1, 1}, .ceil_mode = true};
  CHECK(pk_conv2d_geom_init(&p, msg, sizeof msg) == PTERA_OK);
  CHECK(p.oh == 3 && p.ow == 2);
  p.ceil_mode = false;
  CHECK(pk_conv2d_geom_init(&p, msg, sizeof msg) == PTERA_OK);
  CHECK(p.oh == 2 && p.ow == 2);
  t.ceil_mode = true; /* not with transposed */
  CHECK(pk_conv2d_geom_init(&t, msg, sizeof msg) == PTERA_INVALID_ARGUMENT);
}

int main(void) {
  CHECK(ptera_threadpool_create(2, NULL, &pools[0]) == PTERA_OK);
  CHECK(ptera_threadpool_create(3, NULL, &pools[1]) == PTERA_OK);
  geom_rejects();
  tcase t;
  for (int i = 0; i < 120; i++) {
    random_case(&t, true, false);
    check_case(&t, i % 4 == 0);
  }
  for (int i = 0; i < 120; i++) {
    random_case(&t, false, false);
    check_case(&t, i % 3 == 0);
  }
  for (int i = 0; i < 80; i++) {
    random_case(&t, false, true);
    check_case(&t, i % 4 == 0);
  }
  /* Depthwise with channel counts across the channels-last kernels' vector
   * widths (4, 8, 16) and tails, any kernel extent, stride and dilation. */
  static const int64_t dwc[] = {1, 3, 4, 7, 8, 15, 16, 17, 31, 33, 40, 48};
  for (size_t i = 0; i < sizeof dwc / sizeof dwc[0]; i++) {
    char msg[160];
    memset(&t, 0, sizeof t);
    do {
      int64_t s0 = 1 + rnd(3), d0 = 1 + rnd(2);
      t.g = (pk_conv2d_geom){.n = 1 + rnd(2), .c_in = dwc[i], .c_out = dwc[i], .groups = dwc[i],
                             .kh = 1 + rnd(7), .kw = 1 + rnd(7), .stride = {s0, 1 + rnd(3)},
                             .pad = {rnd(4), rnd(4)}, .dil = {d0, 1 + rnd(2)}, .h = 1 + rnd(12),
                             .w = 1 + rnd(14)};
    } while (pk_conv2d_geom_init(&t.g, msg, sizeof msg) != PTERA_OK);
    t.bias = i % 3 != 0;
    t.min = i % 4 == 1 ? -0.25f : -INFINITY;
    t.max = i % 4 == 1 ? 0.5f : INFINITY;
    check_case(&t, i % 2 == 0);
  }
  /* 3x3 depthwise (the channels-last kernels' register path) at strides 1
   * to 3, dilation 1 and 2, padding up to 3, over the same channel counts */
  for (size_t i = 0; i < 2 * sizeof dwc / sizeof dwc[0]; i++) {
    char msg[160];
    memset(&t, 0, sizeof t);
    do {
      int64_t c = dwc[i % (sizeof dwc / sizeof dwc[0])], d = 1 + rnd(2);
      t.g = (pk_conv2d_geom){.n = 1, .c_in = c, .c_out = c, .groups = c, .kh = 3, .kw = 3,
                             .stride = {1 + rnd(3), 1 + rnd(3)}, .pad = {rnd(4), rnd(4)}, .dil = {d, d},
                             .h = 1 + rnd(12), .w = 1 + rnd(14)};
    } while (pk_conv2d_geom_init(&t.g, msg, sizeof msg) != PTERA_OK);
    t.bias = i % 2 != 0;
    check_case(&t, i % 3 == 0);
  }
  /* MobileNetV2's and ResNet-18's shapes, scaled down in extent */
  static const int64_t shapes[][8] = {
      /* c_in, c_out, groups, k, stride, pad, h, w */
      {3, 8, 1, 3, 2, 1, 17, 17}, {16, 16, 16, 3, 1, 1, 14, 14}, {24, 24, 24, 3, 2, 1, 15, 15},
      {16, 24, 1, 1, 1, 0, 9, 9},  {3, 8, 1, 7, 2, 3, 23, 23},   {8, 16, 1, 1, 2, 0, 9, 9},
      {32, 32, 32, 5, 1, 2, 7, 7}, {32, 32, 32, 5, 2, 2, 19, 19}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    const int64_t *s = shapes[i];
    char msg[160];
    memset(&t, 0, sizeof t);
    t.g = (pk_conv2d_geom){.n = 1, .c_in = s[0], .c_out = s[1], .groups = s[2], .kh = s[3], .kw = s[3],
                           .stride = {s[4], s[4]}, .pad = {s[5], s[5]}, .dil = {1, 1}, .h = s[6], .w = s[7]};
    CHECK(pk_conv2d_geom_init(&t.g, msg, sizeof msg) == PTERA_OK);
    CHECK(pk_conv2d_dwcl_applies(&t.g) == (i == 2 || i == 6)); /* 8x8, 7x7 outputs: channels last (not on AVX-512) */
    t.bias = true;
    t.min = -INFINITY;
    t.max = INFINITY;
    check_case(&t, true);
  }
  /* Outputs of megabytes, which the product stores around the caches
   * (non-temporal, fenced before the threads' loop ends): 3.5 MB from a 1x1
   * (streamed on 1, 2 and 3 threads), 1.6 MB from a gathered 3x3 s2 (on one). */
  static const int64_t streamed[][8] = {{8, 96, 1, 1, 1, 0, 96, 96}, {3, 32, 1, 3, 2, 1, 224, 224}};
  for (size_t i = 0; i < sizeof streamed / sizeof streamed[0]; i++) {
    const int64_t *s = streamed[i];
    char msg[160];
    memset(&t, 0, sizeof t);
    t.g = (pk_conv2d_geom){.n = 1, .c_in = s[0], .c_out = s[1], .groups = s[2], .kh = s[3], .kw = s[3],
                           .stride = {s[4], s[4]}, .pad = {s[5], s[5]}, .dil = {1, 1}, .h = s[6], .w = s[7]};
    CHECK(pk_conv2d_geom_init(&t.g, msg, sizeof msg) == PTERA_OK);
    t.bias = true;
    t.min = i ? 0.0f : -INFINITY;
    t.max = i ? 6.0f : INFINITY;
    check_case(&t, true);
  }
  /* Past one B tile (K * columns above the tile budget): several tiles, an
   * uneven last one, their balance over 2 and 3 threads; a 1-pixel output
   * with more threads than tiles (the product split in shares). */
  static const int64_t tiled[][9] = {
      /* c_in, c_out, groups, kh, kw, stride, pad, h, w */
      {64, 19, 1, 3, 3, 1, 1, 21, 19}, {40, 33, 1, 5, 3, 1, 2, 23, 17}, {72, 30, 2, 3, 3, 2, 1, 37, 29},
      {96, 45, 1, 3, 3, 1, 0, 3, 3},   {130, 17, 1, 1, 1, 1, 0, 45, 31},
      /* few pixels, many channels: pixels as the product's rows */
      {64, 40, 1, 3, 3, 1, 1, 7, 7},   {48, 64, 2, 1, 1, 1, 0, 5, 9},   {24, 33, 1, 3, 3, 2, 1, 13, 11},
      {10, 70, 1, 5, 5, 2, 2, 8, 8},
      /* few pixel blocks, many output channels: each block's product split
       * over its rows among 2 and 3 threads (conv2d_split.h) */
      {8, 100, 1, 3, 3, 1, 1, 9, 9},   {12, 67, 1, 3, 3, 2, 1, 19, 17},
      /* pixels as rows with a gather big enough to split over the threads;
       * depthwise through channels last with transposes that split too */
      {256, 32, 1, 3, 3, 1, 1, 7, 7},  {1032, 1032, 1032, 3, 3, 1, 1, 8, 8}};
  for (size_t i = 0; i < sizeof tiled / sizeof tiled[0]; i++) {
    const int64_t *s = tiled[i];
    char msg[160];
    memset(&t, 0, sizeof t);
    t.g = (pk_conv2d_geom){.n = 1 + (int64_t)(i % 2), .c_in = s[0], .c_out = s[1], .groups = s[2], .kh = s[3],
                           .kw = s[4], .stride = {s[5], s[5]}, .pad = {s[6], s[6]}, .dil = {1, 1}, .h = s[7],
                           .w = s[8]};
    CHECK(pk_conv2d_geom_init(&t.g, msg, sizeof msg) == PTERA_OK);
    CHECK(pk_conv2d_pixrows_applies(&t.g) == (i == 3 || (i >= 5 && i <= 8) || i == 11));
    CHECK(pk_conv2d_dwcl_applies(&t.g) == (i == 12));
    t.bias = i != 2;
    t.min = i == 1 ? 0.0f : -INFINITY;
    t.max = INFINITY;
    check_case(&t, true);
  }
  /* Pixels as rows on random geometry: kernel extents 1..5 each way,
   * strides, padding and dilation per axis, 1 or 2 groups, outputs of 1 to
   * 64 pixels across the A panels of every ISA (4, 6, 8, 14 rows); the
   * input gathered straight into the packed panels. */
  for (int i = 0; i < 16; i++) {
    char msg[160];
    memset(&t, 0, sizeof t);
    do {
      int64_t grp = 1 + rnd(2);
      t.g = (pk_conv2d_geom){.n = 1 + rnd(2), .c_in = grp * (2 + rnd(20)), .c_out = grp * (32 + rnd(20)),
                             .groups = grp, .kh = 1 + rnd(5), .kw = 1 + rnd(5), .stride = {1 + rnd(2), 1 + rnd(3)},
                             .pad = {rnd(3), rnd(3)}, .dil = {1 + rnd(2), 1 + rnd(2)}, .h = 1 + rnd(12),
                             .w = 1 + rnd(12)};
    } while (pk_conv2d_geom_init(&t.g, msg, sizeof msg) != PTERA_OK || !pk_conv2d_pixrows_applies(&t.g));
    t.bias = i % 3 != 0;
    t.min = i % 4 == 1 ? -0.25f : -INFINITY;
    t.max = i % 4 == 1 ? 0.5f : INFINITY;
    check_case(&t, i % 4 < 2);
  }
  /* Winograd: 3x3 stride 1, >= 16 channels, >= 100 output pixels, in both
   * sizes (pk_conv2d_wino_tile; F(4x4) on planes of 32 or more 4x4 tiles),
   * alternately: odd extents (partial tiles), padding 0..2, odd channel
   * counts, the vector runs (16 and 4 tiles of F(2x2), 8 and 4 of F(4x4))
   * and the edges around them, several tile blocks. */
  for (int i = 0; i < 20; i++) {
    size_t m = i % 2 ? 4 : 2;
    char msg[160];
    memset(&t, 0, sizeof t);
    do {
      int64_t h = 8 + rnd(m == 2 ? 14 : 38), w = 8 + rnd(70), p = rnd(3);
      t.g = (pk_conv2d_geom){.n = 1 + rnd(2), .c_in = 16 + rnd(25), .c_out = 16 + rnd(30), .groups = 1,
                             .kh = 3, .kw = 3, .stride = {1, 1}, .pad = {p, rnd(3)}, .dil = {1, 1}, .h = h,
                             .w = w};
    } while (pk_conv2d_geom_init(&t.g, msg, sizeof msg) != PTERA_OK || pk_conv2d_wino_tile(&t.g) != m);
    CHECK(pk_conv2d_wino_applies(&t.g));
    if (i >= 16 && m == 2) { /* few tile blocks, many output channels: blocks shared over their rows */
      t.g.c_out = 64 + 37 * (i - 16) / 2;
      t.g.h = 12 + (i - 16) / 2;
      t.g.w = 13 + (i - 16) / 2;
      CHECK(pk_conv2d_geom_init(&t.g, msg, sizeof msg) == PTERA_OK);
      CHECK(pk_conv2d_wino_tile(&t.g) == 2);
    }
    t.bias = i % 3 != 0;
    t.min = i % 4 == 1 ? -0.25f : -INFINITY;
    t.max = i % 4 == 1 ? 0.5f : INFINITY;
    check_case(&t, i % 4 < 2 || i >= 16);
  }
  /* F(4x4, 3x3) on ResNet-like channel counts (the longest sums, where the
   * transforms' rounding grows most), odd extents and channels, few tile
   * blocks with many output channels (shared over their rows), wide rows. */
  static const int64_t wino4[][6] = {
      /* c_in, c_out, pad, h, w, n */
      {256, 40, 1, 26, 27, 1}, {512, 24, 0, 30, 27, 1}, {24, 130, 1, 20, 21, 1},
      {17, 19, 2, 33, 41, 2},  {32, 48, 1, 40, 44, 1},  {129, 67, 0, 22, 22, 2},
      /* wide rows: whole 16-tile runs of the vector transforms, read in
       * place (the window inside the plane) and from a padded copy */
      {20, 24, 0, 10, 90, 1},  {16, 20, 1, 9, 150, 1}};
  for (size_t i = 0; i < sizeof wino4 / sizeof wino4[0]; i++) {
    const int64_t *s = wino4[i];
    char msg[160];
    memset(&t, 0, sizeof t);
    t.g = (pk_conv2d_geom){.n = s[5], .c_in = s[0], .c_out = s[1], .groups = 1, .kh = 3, .kw = 3,
                           .stride = {1, 1}, .pad = {s[2], s[2]}, .dil = {1, 1}, .h = s[3], .w = s[4]};
    CHECK(pk_conv2d_geom_init(&t.g, msg, sizeof msg) == PTERA_OK);
    CHECK(pk_conv2d_wino_tile(&t.g) == 4);
    t.bias = i != 1;
    t.min = i == 3 ? 0.0f : -INFINITY;
    t.max = INFINITY;
    check_case(&t, true);
  }
  /* F(2x2, 3x3) on wide, short planes: whole 16-tile runs, the last one
   * ending at the plane's right edge (its window past the edge is padding) */
  static const int64_t wino2[][6] = {/* c_in, c_out, pad_h, pad_w, h, w */
                                     {16, 20, 1, 1, 6, 32}, {16, 24, 1, 1, 4, 64}, {17, 16, 0, 0, 6, 66},
                                     {17, 16, 0, 1, 6, 64}};
  for (size_t i = 0; i < sizeof wino2 / sizeof wino2[0]; i++) {
    const int64_t *s = wino2[i];
    char msg[160];
    memset(&t, 0, sizeof t);
    t.g = (pk_conv2d_geom){.n = 1, .c_in = s[0], .c_out = s[1], .groups = 1, .kh = 3, .kw = 3,
                           .stride = {1, 1}, .pad = {s[2], s[3]}, .dil = {1, 1}, .h = s[4], .w = s[5]};
    CHECK(pk_conv2d_geom_init(&t.g, msg, sizeof msg) == PTERA_OK);
    CHECK(pk_conv2d_wino_tile(&t.g) == 2);
    t.bias = true;
    t.min = -INFINITY;
    t.max = INFINITY;
    check_case(&t, i == 0);
  }
  ptera_threadpool_destroy(pools[0]);
  ptera_threadpool_destroy(pools[1]);
  printf("conv_fast: %zu cases, %zu fast-path runs, %zu mismatching cases\n", cases, runs, mismatches);
  return check_summary("conv_fast");
}

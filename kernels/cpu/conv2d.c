/* f32 convolution fast path (see conv2d.h). */
#include "cpu/conv2d.h"

#include <string.h>

#include "cpu/gemm.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwconv.h"

#define CONV_KMAX 64                    /* largest kernel extent the gather path takes */
#define CONV_TILE_BYTES ((size_t)192 << 10) /* per-thread gather budget (fits L2) */
#define CONV_DIRECT_COLS 2048               /* columns per product when B is the input */

/* ---- depthwise ---- */

static const pk_f32_dwconv2d_fn dw_scalar[4] = {pk_f32_dwconv3x3s1_scalar, pk_f32_dwconv3x3s2_scalar,
                                                pk_f32_dwconv5x5s1_scalar, pk_f32_dwconv5x5s2_scalar};
#if defined(__x86_64__)
static const pk_f32_dwconv2d_fn dw_avx2[4] = {pk_f32_dwconv3x3s1_avx2, pk_f32_dwconv3x3s2_avx2,
                                              pk_f32_dwconv5x5s1_avx2, pk_f32_dwconv5x5s2_avx2};
static const pk_f32_dwconv2d_fn dw_avx512[4] = {pk_f32_dwconv3x3s1_avx512, pk_f32_dwconv3x3s2_avx512,
                                                pk_f32_dwconv5x5s1_avx512, pk_f32_dwconv5x5s2_avx512};
#elif defined(__aarch64__)
static const pk_f32_dwconv2d_fn dw_neon[4] = {pk_f32_dwconv3x3s1_neon, pk_f32_dwconv3x3s2_neon,
                                              pk_f32_dwconv5x5s1_neon, pk_f32_dwconv5x5s2_neon};
#endif

/* The depthwise micro-kernel for g, or NULL when g is not one it covers. */
static pk_f32_dwconv2d_fn dw_pick(const pk_conv2d_geom *g) {
  if (!pk_conv2d_is_depthwise(g) || g->kh != g->kw || (g->kh != 3 && g->kh != 5) ||
      g->stride[0] != g->stride[1] || g->stride[0] > 2 || g->dil[0] != 1 || g->dil[1] != 1)
    return NULL;
  size_t i = (g->kh == 5 ? 2u : 0u) + (g->stride[0] == 2 ? 1u : 0u);
  switch (pk_isa_selected()) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: return dw_avx512[i];
    case PK_ISA_AVX2: return dw_avx2[i];
#elif defined(__aarch64__)
    case PK_ISA_NEON: return dw_neon[i];
#endif
    default: return dw_scalar[i];
  }
}

typedef struct dw_job {
  const pk_conv2d_geom *g;
  pk_f32_dwconv2d_fn fn;
  const float *in, *w, *bias;
  float *out;
  pk_dwconv2d_params p;
} dw_job;

static void dw_task(void *arg, size_t begin, size_t end) {
  const dw_job *j = arg;
  size_t C = (size_t)j->g->c_in, k2 = (size_t)(j->g->kh * j->g->kw);
  for (size_t plane = begin; plane < end; plane++) {
    size_t c = plane % C;
    j->fn(j->in + plane * j->p.h * j->p.w, j->w + c * k2, j->bias ? j->bias[c] : 0.0f,
          j->out + plane * j->p.oh * j->p.ow, &j->p);
  }
}

/* ---- gather + matrix product ---- */

static pk_gemm_f32_args gemm_args(size_t M, size_t N, size_t K, const float *a, size_t lda, const void *pa,
                                  const float *b, size_t ldb, const float *bias, float *c, size_t ldc, float min,
                                  float max) {
  pk_gemm_f32_args g = {M, N, K, {a, lda, 1, pa}, {b, ldb, 1, NULL}, bias, NULL, c, ldc, min, max};
  return g;
}

/* The workspace of the worst case: A not packed. */
static size_t gemm_workspace(size_t M, size_t N, size_t K) {
  pk_gemm_f32_args g = gemm_args(M, N, K, NULL, K, NULL, NULL, N, NULL, NULL, N, 0.0f, 0.0f);
  return pk_gemm_f32_workspace(&g, 1);
}

/* C[M, N] = clamp(bias_m + A[M, K] * B[K, N]) through the GEMM layer, one
 * thread (the caller splits); rows of A, B, C lda, ldb, ldc apart; pa: A
 * packed by pk_gemm_f32_pack_a, or NULL to read a; ws holds gemm_workspace(M, N, K)
 * bytes. */
static void conv_gemm(size_t M, size_t N, size_t K, const float *a, size_t lda, const void *pa, const float *b,
                      size_t ldb, const float *bias, float *c, size_t ldc, float min, float max, void *ws) {
  pk_gemm_f32_args g = gemm_args(M, N, K, a, lda, pa, b, ldb, bias, c, ldc, min, max);
  pk_gemm_f32_run(&g, ws, NULL);
}

/* One output phase: grid point (t, u) is output (y0 + ys*t, x0 + xs*u); tap
 * (j, i) reads input (t*ay + offy[j], u*ax + offx[i]) with kernel element
 * (ky[j], kx[i]). A plain convolution is one phase of the whole output. */
typedef struct conv_phase {
  size_t nt, nu, y0, x0, ys, xs, nj, ni;
  ptrdiff_t ay, ax;
  ptrdiff_t offy[CONV_KMAX], offx[CONV_KMAX];
  size_t ky[CONV_KMAX], kx[CONV_KMAX];
} conv_phase;

typedef struct conv_job {
  const pk_conv2d_geom *g;
  const conv_phase *ph;
  const float *in, *w, *bias;
  const char *packed; /* per group filters packed for the GEMM, pack_stride apart; or NULL */
  size_t pack_stride;
  float *out;
  float min, max;
  char *ws;
  size_t slice, gws, nb, ntiles, grain; /* gws: the GEMM's bytes at the slice's start */
  bool direct; /* 1x1, stride 1, no padding: B is the input itself */
} conv_job;

/* Phase taps of one dim: forward, or transposed for outputs o0 + s*t. */
static size_t phase_taps(bool transposed, int64_t k, int64_t s, int64_t p, int64_t d, int64_t o0,
                         ptrdiff_t *off, size_t *kk) {
  size_t n = 0;
  if (!transposed) {
    for (int64_t j = 0; j < k; j++, n++) {
      off[n] = (ptrdiff_t)(j * d - p);
      kk[n] = (size_t)j;
    }
    return n;
  }
  /* o0 + s*t = iy*s - p + j*d  <=>  j*d = r (mod s), iy = t + (o0 + p - r)/s - (j*d - r)/s */
  int64_t r = (o0 + p) % s, q0 = (o0 + p - r) / s;
  for (int64_t j = 0; j < k; j++)
    if ((j * d) % s == r) {
      off[n] = (ptrdiff_t)(q0 - (j * d - r) / s);
      kk[n++] = (size_t)j;
    }
  return n;
}

/* Gathers rows [c, j, i] of B (nb columns from grid point col0) into dst. */
static void conv_gather(const conv_job *jb, const float *plane0, size_t cin_g, size_t col0, size_t nb,
                        float *dst) {
  const conv_phase *ph = jb->ph;
  size_t H = (size_t)jb->g->h, W = (size_t)jb->g->w;
  for (size_t c = 0; c < cin_g; c++) {
    const float *plane = plane0 + c * H * W;
    for (size_t j = 0; j < ph->nj; j++)
      for (size_t i = 0; i < ph->ni; i++, dst += nb) {
        size_t col = 0, t = col0 / ph->nu, u = col0 % ph->nu;
        while (col < nb) {
          size_t run = ph->nu - u < nb - col ? ph->nu - u : nb - col;
          ptrdiff_t iy = (ptrdiff_t)t * ph->ay + ph->offy[j];
          float *d = dst + col;
          if (iy < 0 || iy >= (ptrdiff_t)H) {
            memset(d, 0, run * sizeof *d);
          } else {
            const float *row = plane + (size_t)iy * W;
            ptrdiff_t ax = ph->ax, ix0 = (ptrdiff_t)u * ax + ph->offx[i];
            size_t q = 0;
            for (; q < run && ix0 + (ptrdiff_t)q * ax < 0; q++) d[q] = 0.0f;
            size_t qe = q;
            while (qe < run && ix0 + (ptrdiff_t)qe * ax < (ptrdiff_t)W) qe++;
            if (ax == 1) {
              memcpy(d + q, row + ix0 + (ptrdiff_t)q, (qe - q) * sizeof *d);
            } else {
              for (size_t e = q; e < qe; e++) d[e] = row[ix0 + (ptrdiff_t)e * ax];
            }
            for (q = qe; q < run; q++) d[q] = 0.0f;
          }
          col += run;
          t++;
          u = 0;
        }
      }
  }
}

static void conv_item(const conv_job *jb, size_t item, char *slice) {
  const pk_conv2d_geom *g = jb->g;
  const conv_phase *ph = jb->ph;
  size_t cin_g = (size_t)pk_conv2d_cin_g(g), cout_g = (size_t)pk_conv2d_cout_g(g);
  size_t groups = (size_t)g->groups, tile = item % jb->ntiles, rest = item / jb->ntiles;
  size_t grp = rest % groups, n = rest / groups;
  size_t P = ph->nt * ph->nu, col0 = tile * jb->nb, nb = P - col0 < jb->nb ? P - col0 : jb->nb;
  size_t H = (size_t)g->h, W = (size_t)g->w, OH = (size_t)g->oh, OW = (size_t)g->ow;
  size_t K = cin_g * ph->nj * ph->ni;
  const float *plane0 = jb->in + (n * (size_t)g->c_in + grp * cin_g) * H * W;
  const float *bias = jb->bias ? jb->bias + grp * cout_g : NULL;
  float *obase = jb->out + (n * (size_t)g->c_out + grp * cout_g) * OH * OW;
  void *gws = slice;
  float *bt = slice ? (float *)(slice + jb->gws) : NULL;
  const float *b = bt;
  size_t ldb = nb;
  if (jb->direct) {
    b = plane0 + col0;
    ldb = H * W;
  } else {
    conv_gather(jb, plane0, cin_g, col0, nb, bt);
  }
  if (!g->transposed) {
    const void *pa = jb->packed ? jb->packed + grp * jb->pack_stride : NULL;
    conv_gemm(cout_g, nb, K, jb->w + grp * cout_g * K, K, pa, b, ldb, bias, obase + col0, OH * OW, jb->min,
              jb->max, gws);
    return;
  }
  /* transposed: weight [C_in, C_out/g, kh, kw]; this phase's sub-kernel as
   * A[oc, (c, j, i)], the product in a tile, then scattered to the phase's
   * output points */
  size_t kh = (size_t)g->kh, kw = (size_t)g->kw;
  float *a = bt + K * jb->nb, *ct = a + cout_g * K;
  for (size_t oc = 0; oc < cout_g; oc++) {
    float *arow = a + oc * K;
    for (size_t c = 0; c < cin_g; c++) {
      const float *wk = jb->w + (((grp * cin_g + c) * cout_g + oc) * kh) * kw;
      for (size_t j = 0; j < ph->nj; j++)
        for (size_t i = 0; i < ph->ni; i++) *arow++ = wk[ph->ky[j] * kw + ph->kx[i]];
    }
  }
  conv_gemm(cout_g, nb, K, a, K, NULL, b, ldb, bias, ct, nb, jb->min, jb->max, gws);
  for (size_t oc = 0; oc < cout_g; oc++) {
    const float *crow = ct + oc * nb;
    float *oplane = obase + oc * OH * OW;
    size_t t = col0 / ph->nu, u = col0 % ph->nu;
    for (size_t col = 0; col < nb; col++) {
      oplane[(ph->y0 + ph->ys * t) * OW + ph->x0 + ph->xs * u] = crow[col];
      if (++u == ph->nu) {
        u = 0;
        t++;
      }
    }
  }
}

static void conv_task(void *arg, size_t begin, size_t end) {
  const conv_job *jb = arg;
  char *slice = jb->ws ? jb->ws + (begin / jb->grain) * jb->slice : NULL;
  for (size_t item = begin; item < end; item++) conv_item(jb, item, slice);
}

/* ---- planning ---- */

static bool mul_ok(size_t a, size_t b, size_t *r) { return !__builtin_mul_overflow(a, b, r); }

static bool is_direct(const pk_conv2d_geom *g) {
  return !g->transposed && g->kh == 1 && g->kw == 1 && g->stride[0] == 1 && g->stride[1] == 1 &&
         g->pad[0] == 0 && g->pad[1] == 0;
}

/* Tile width nb, the GEMM's share *gws and the per-thread bytes *slice of
 * the gather path; false on overflow. */
static bool conv_plan(const pk_conv2d_geom *g, size_t *nb, size_t *gws, size_t *slice) {
  size_t cin_g = (size_t)pk_conv2d_cin_g(g), cout_g = (size_t)pk_conv2d_cout_g(g), K, P, a = 0, per;
  if (!mul_ok(cin_g, (size_t)(g->kh * g->kw), &K) || !mul_ok((size_t)g->oh, (size_t)g->ow, &P)) return false;
  size_t rows = is_direct(g) ? 0 : K; /* floats per tile column */
  if (g->transposed) {
    if (!mul_ok(cout_g, K, &a)) return false;
    rows += cout_g;
  }
  size_t n = rows ? CONV_TILE_BYTES / sizeof(float) / rows : CONV_DIRECT_COLS;
  n = n < 16 ? 16 : n & ~(size_t)15;
  *nb = n < P ? n : P;
  if (!mul_ok(rows, *nb, &per) || __builtin_add_overflow(per, a, &per) || !mul_ok(per, sizeof(float), &per))
    return false;
  *gws = (gemm_workspace(cout_g, *nb, K) + 63) & ~(size_t)63;
  if (__builtin_add_overflow(per, *gws, &per)) return false;
  *slice = (per + 63) & ~(size_t)63;
  return *slice >= per;
}

/* Bytes between two groups' packed filters; 0 when the path packs none. */
static size_t pack_stride(const pk_conv2d_geom *g) {
  size_t K;
  if (g->transposed || dw_pick(g) || !mul_ok((size_t)pk_conv2d_cin_g(g), (size_t)(g->kh * g->kw), &K)) return 0;
  size_t a = pk_gemm_f32_pack_a_size((size_t)pk_conv2d_cout_g(g), K);
  return (a + 63) & ~(size_t)63;
}

size_t pk_conv2d_f32_pack_size(const pk_conv2d_geom *g) {
  size_t total;
  if (!mul_ok(pack_stride(g), (size_t)g->groups, &total)) return SIZE_MAX;
  return total;
}

void pk_conv2d_f32_pack(const pk_conv2d_geom *g, const float *w, void *packed) {
  size_t stride = pack_stride(g), cout_g = (size_t)pk_conv2d_cout_g(g);
  size_t K = (size_t)(pk_conv2d_cin_g(g) * g->kh * g->kw);
  for (size_t grp = 0; grp < (size_t)g->groups; grp++)
    pk_gemm_f32_pack_a(cout_g, K, w + grp * cout_g * K, K, 1, (char *)packed + grp * stride);
}

bool pk_conv2d_f32_supported(const pk_conv2d_geom *g) {
  return g->layout == PK_CONV_NCHW && g->kh <= CONV_KMAX && g->kw <= CONV_KMAX;
}

size_t pk_conv2d_f32_workspace(const pk_conv2d_geom *g, size_t nthreads) {
  size_t nb, gws, slice, total;
  if (dw_pick(g)) return 0;
  if (!conv_plan(g, &nb, &gws, &slice) || !mul_ok(slice, nthreads ? nthreads : 1, &total)) return SIZE_MAX;
  return total;
}

static void conv_run_phase(conv_job *jb, ptera_kernel_ctx *ctx, size_t nthreads) {
  size_t P = jb->ph->nt * jb->ph->nu;
  if (P == 0) return;
  jb->ntiles = (P + jb->nb - 1) / jb->nb;
  size_t items = (size_t)jb->g->n * (size_t)jb->g->groups * jb->ntiles;
  jb->grain = (items + nthreads - 1) / nthreads;
  ptera_kernel_parallel_for(ctx, items, jb->grain, conv_task, jb);
}

void pk_conv2d_f32(const pk_conv2d_geom *g, const float *in, const float *w, const void *packed_w,
                   const float *bias, float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx) {
  size_t nthreads = ptera_kernel_thread_count(ctx);
  pk_f32_dwconv2d_fn dw = dw_pick(g);
  if (dw) {
    dw_job j = {g, dw, in, w, bias, out,
                {(size_t)g->h, (size_t)g->w, (size_t)g->oh, (size_t)g->ow, (size_t)g->pad[0],
                 (size_t)g->pad[1], min, max}};
    size_t planes = (size_t)(g->n * g->c_in);
    ptera_kernel_parallel_for(ctx, planes, (planes + nthreads - 1) / nthreads, dw_task, &j);
    return;
  }
  conv_job jb = {.g = g, .in = in, .w = w, .bias = bias, .out = out, .min = min, .max = max,
                 .ws = ws, .direct = is_direct(g)};
  if (packed_w && pack_stride(g)) {
    jb.packed = packed_w;
    jb.pack_stride = pack_stride(g);
  }
  conv_plan(g, &jb.nb, &jb.gws, &jb.slice);
  conv_phase ph;
  if (!g->transposed) {
    ph.nt = (size_t)g->oh;
    ph.nu = (size_t)g->ow;
    ph.y0 = ph.x0 = 0;
    ph.ys = ph.xs = 1;
    ph.ay = (ptrdiff_t)g->stride[0];
    ph.ax = (ptrdiff_t)g->stride[1];
    ph.nj = phase_taps(false, g->kh, g->stride[0], g->pad[0], g->dil[0], 0, ph.offy, ph.ky);
    ph.ni = phase_taps(false, g->kw, g->stride[1], g->pad[1], g->dil[1], 0, ph.offx, ph.kx);
    jb.ph = &ph;
    conv_run_phase(&jb, ctx, nthreads);
    return;
  }
  size_t sy = (size_t)g->stride[0], sx = (size_t)g->stride[1], OH = (size_t)g->oh, OW = (size_t)g->ow;
  ph.ys = sy;
  ph.xs = sx;
  ph.ay = ph.ax = 1;
  jb.ph = &ph;
  for (size_t y0 = 0; y0 < sy && y0 < OH; y0++) {
    ph.y0 = y0;
    ph.nt = (OH - y0 + sy - 1) / sy;
    ph.nj = phase_taps(true, g->kh, g->stride[0], g->pad[0], g->dil[0], (int64_t)y0, ph.offy, ph.ky);
    for (size_t x0 = 0; x0 < sx && x0 < OW; x0++) {
      ph.x0 = x0;
      ph.nu = (OW - x0 + sx - 1) / sx;
      ph.ni = phase_taps(true, g->kw, g->stride[1], g->pad[1], g->dil[1], (int64_t)x0, ph.offx, ph.kx);
      conv_run_phase(&jb, ctx, nthreads);
    }
  }
}

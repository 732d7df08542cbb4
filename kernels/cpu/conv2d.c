/* f32 convolution fast path (see conv2d.h). */
#include "cpu/conv2d.h"

#include <string.h>

#include "cpu/conv2d_dwcl.h"
#include "cpu/conv2d_nhwc.h"
#include "cpu/conv2d_pixrows.h"
#include "cpu/conv2d_slots.h"
#include "cpu/conv2d_split.h"
#include "cpu/conv2d_winograd.h"
#include "cpu/evens.h"
#include "cpu/gemm.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwconv.h"

#define CONV_KMAX 64                        /* largest kernel extent the gather path takes */
#define CONV_TILE_BYTES ((size_t)192 << 10) /* transposed: per-thread gather budget (fits L2) */
#define CONV_BTILE_BYTES ((size_t)768 << 10) /* forward: packed B tile per thread (in L2) */
#define CONV_COL_STEP 32u                   /* forward tile widths: whole panels of every ISA but NEON */
#define CONV_NR_MAX 32u                     /* widest B panel of any ISA's GEMM kernels */

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

/* Small planes go through channels last (conv2d_dwcl.c), except where the
 * AVX-512 plane kernels take them whole: rows that fit one vector (two at
 * stride 2), nothing staged, beat the transposes there. */
static bool use_dwcl(const pk_conv2d_geom *g) {
  if (!pk_conv2d_dwcl_applies(g)) return false;
  return !(dw_pick(g) && pk_isa_selected() == PK_ISA_AVX512 &&
           pk_dwconv2d_unstaged_avx512((size_t)g->stride[1], (size_t)g->w, (size_t)g->ow));
}

typedef struct dw_job {
  const pk_conv2d_geom *g;
  pk_f32_dwconv2d_fn fn;
  const float *in, *w, *bias;
  float *out;
  pk_dwconv2d_params p;
  char *ws;
  size_t slot; /* bytes of one task's staged rows */
  slot_set slots;
} dw_job;

/* Floats of one task's staged rows (see dwconv.h). */
static size_t dw_scratch_floats(const pk_conv2d_geom *g, size_t *wp) {
  *wp = pk_dwconv2d_row_floats((size_t)g->stride[1], (size_t)g->w, (size_t)g->ow, (size_t)g->pad[1]);
  return pk_dwconv2d_scratch_rows((size_t)g->kh) * *wp;
}

static void dw_task(void *arg, size_t begin, size_t end) {
  dw_job *j = arg;
  size_t C = (size_t)j->g->c_in, k2 = (size_t)(j->g->kh * j->g->kw), slot = slot_claim(&j->slots);
  pk_dwconv2d_params p = j->p;
  p.scratch = (float *)(j->ws + slot * j->slot);
  memset(p.scratch, 0, pk_dwconv2d_scratch_rows((size_t)j->g->kh) * p.wp * sizeof(float));
  for (size_t plane = begin; plane < end; plane++) {
    size_t c = plane % C;
    j->fn(j->in + plane * p.h * p.w, j->w + c * k2, j->bias ? j->bias[c] : 0.0f, j->out + plane * p.oh * p.ow, &p);
  }
  slot_release(&j->slots, slot);
}

/* ---- shared by both product paths ---- */

static bool mul_ok(size_t a, size_t b, size_t *r) { return !__builtin_mul_overflow(a, b, r); }
static size_t align64(size_t x) { return (x + 63) & ~(size_t)63; }

/* One output phase: grid point (t, u) is output (y0 + ys*t, x0 + xs*u); tap
 * (j, i) reads input (t*ay + offy[j], u*ax + offx[i]) with kernel element
 * (ky[j], kx[i]). A plain convolution is one phase of the whole output. */
typedef struct conv_phase {
  size_t nt, nu, y0, x0, ys, xs, nj, ni;
  ptrdiff_t ay, ax;
  ptrdiff_t offy[CONV_KMAX], offx[CONV_KMAX];
  size_t ky[CONV_KMAX], kx[CONV_KMAX];
} conv_phase;

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

/* Row (j, i) of B for one input plane H x W: the n values at grid points
 * col, col + 1, ... (row-major over the phase's nt x nu grid) into d. */
static void gather_run(const conv_phase *ph, const float *plane, size_t H, size_t W, size_t j, size_t i,
                       size_t col, size_t n, float *d) {
  size_t t = col / ph->nu, u = col % ph->nu, done = 0;
  while (done < n) {
    size_t run = ph->nu - u < n - done ? ph->nu - u : n - done;
    ptrdiff_t iy = (ptrdiff_t)t * ph->ay + ph->offy[j];
    float *o = d + done;
    if (iy < 0 || iy >= (ptrdiff_t)H) {
      memset(o, 0, run * sizeof *o);
    } else {
      const float *row = plane + (size_t)iy * W;
      ptrdiff_t ax = ph->ax, ix0 = (ptrdiff_t)u * ax + ph->offx[i];
      size_t q = 0;
      for (; q < run && ix0 + (ptrdiff_t)q * ax < 0; q++) o[q] = 0.0f;
      size_t qe = q;
      while (qe < run && ix0 + (ptrdiff_t)qe * ax < (ptrdiff_t)W) qe++;
      if (ax == 1) {
        memcpy(o + q, row + ix0 + (ptrdiff_t)q, (qe - q) * sizeof *o);
      } else {
        for (size_t e = q; e < qe; e++) o[e] = row[ix0 + (ptrdiff_t)e * ax];
      }
      for (q = qe; q < run; q++) o[q] = 0.0f;
    }
    done += run;
    t++;
    u = 0;
  }
}

/* ---- forward: the input gathered straight into the GEMM's packed B ----
 * Per image, group and block of nb output pixels: B [K = cin_g*kh*kw, nb]
 * packed in NR-column panels, then C[cout_g, nb] = A·B + bias written into
 * the NCHW output (row stride oh*ow) by the micro-kernels; A the filters
 * packed once. Items are (block, share) as conv2d_split.h cuts them: with
 * few blocks each block's product is split `shares` ways over its rows
 * (pk_gemm_f32_run_share). */

typedef struct fwd_plan {
  size_t K, P, slot; /* slot: bytes of one packed B block */
  size_t units;      /* images x groups x blocks */
  conv_split sp;
} fwd_plan;

/* Workspace: a B per task, or (several shares) a B per unit, gathered once
 * and shared by the unit's shares. */
static bool fwd_ws_bytes(const fwd_plan *pl, size_t nthreads, size_t *total) {
  return mul_ok(pl->slot, pl->sp.shares > 1 ? pl->units : slot_count(nthreads), total);
}

static bool fwd_plan_make(const pk_conv2d_geom *g, size_t nthreads, fwd_plan *pl) {
  size_t K, P, col;
  if (!mul_ok((size_t)pk_conv2d_cin_g(g), (size_t)(g->kh * g->kw), &K) ||
      !mul_ok((size_t)g->oh, (size_t)g->ow, &P) || !mul_ok(K ? K : 1, sizeof(float), &col))
    return false;
  conv_split sp = conv_split_make(P, CONV_COL_STEP, CONV_BTILE_BYTES / col, (size_t)(g->n * g->groups),
                                  (size_t)pk_conv2d_cout_g(g), nthreads);
  size_t slot, units;
  if (!mul_ok(sp.bmax + CONV_NR_MAX - 1, col, &slot) || slot > SIZE_MAX - 128 ||
      !mul_ok((size_t)(g->n * g->groups), sp.nblocks, &units))
    return false;
  *pl = (fwd_plan){K, P, align64(slot + 64), units, sp};
  return true;
}

typedef struct fwd_job {
  const pk_conv2d_geom *g;
  const conv_phase *ph;
  const float *in, *bias;
  const char *packed; /* per group filters, pack_stride apart */
  size_t pack_stride;
  float *out;
  float min, max;
  pk_isa isa;
  size_t nr;
  bool identity; /* 1x1, stride 1, no padding: B's rows are the input planes */
  bool in_place; /* identity, and the product reads them there (nothing gathered) */
  bool stream;   /* the output goes around the caches (see fwd_run) */
  pk_x32_evens_fn evens; /* the stride-2 gather's kernel */
  fwd_plan pl;
  char *ws;
  slot_set slots;
  size_t chunk; /* shared: input channels a gather item takes */
} fwd_job;

/* One run of a B panel's lanes: grid row t, columns u .. u + n - 1. */
typedef struct lane_run {
  size_t t, u, n;
} lane_run;

/* Where tap column i of a run of lanes reads: lanes [lo, hi) from
 * row + ix0 + q*ax, the others zero (found once per panel and tap column). */
typedef struct col_span {
  ptrdiff_t ix0;
  size_t lo, hi;
} col_span;

static col_span span_of(const conv_phase *ph, size_t W, size_t i, const lane_run *r) {
  ptrdiff_t ax = ph->ax, ix0 = (ptrdiff_t)r->u * ax + ph->offx[i];
  size_t n = r->n;
  size_t lo = ix0 >= 0 ? 0 : (size_t)((-ix0 + ax - 1) / ax);
  size_t hi = ix0 >= (ptrdiff_t)W ? 0 : (size_t)(((ptrdiff_t)W - ix0 + ax - 1) / ax);
  if (lo > n) lo = n;
  if (hi > n) hi = n;
  if (hi < lo) hi = lo;
  return (col_span){ix0, lo, hi};
}

/* Row (j, i) of B over one run of lanes, from plane (H x W) into d[0, r->n). */
static void gather_lanes(const conv_phase *ph, const float *plane, size_t H, size_t W, size_t j,
                         const lane_run *r, const col_span *sp, pk_x32_evens_fn evens, float *d) {
  size_t n = r->n, lo = sp->lo, hi = sp->hi;
  ptrdiff_t iy = (ptrdiff_t)r->t * ph->ay + ph->offy[j];
  if (iy < 0 || iy >= (ptrdiff_t)H) {
    memset(d, 0, n * sizeof *d);
    return;
  }
  const float *src = plane + (size_t)iy * W + sp->ix0;
  if (lo) memset(d, 0, lo * sizeof *d);
  if (ph->ax == 1) {
    memcpy(d + lo, src + lo, (hi - lo) * sizeof *d);
  } else if (ph->ax == 2) { /* the ISA kernel: 5% off ResNet-18's 7x7 s2 stem against a plain loop */
    evens(src + 2 * lo, hi - lo, 1, d + lo, 0);
  } else {
    for (size_t q = lo; q < hi; q++) d[q] = src[(ptrdiff_t)q * ph->ax];
  }
  if (hi < n) memset(d + hi, 0, (n - hi) * sizeof *d);
}

#define CONV_SPANS 64 /* spans kept per panel (runs x tap columns; 1.5 KiB of stack) */

/* Whether every tap column of every run lies inside the input row, where a
 * stride-2 undilated gather takes a kernel row's tap columns in one call. */
static bool spans_whole(const fwd_job *jb, const lane_run *runs, size_t nruns, const col_span *spans) {
  if (jb->ph->ax != 2 || jb->g->dil[1] != 1) return false;
  for (size_t k = 0; k < nruns * jb->ph->ni; k++)
    if (spans[k].lo != 0 || spans[k].hi != runs[k / jb->ph->ni].n) return false;
  return true;
}

/* Rows (j, 0 .. ni - 1) of B over the panel's runs, every tap inside the
 * row (spans_whole): tap column i of run r from row + ix0 + i, every second
 * input column, one kernel call per run; dst the row (j, 0), NR apart. */
static void gather_row_taps(const fwd_job *jb, const float *plane, size_t H, size_t W, size_t j,
                            const lane_run *runs, size_t nruns, const col_span *spans, float *dst) {
  const conv_phase *ph = jb->ph;
  float *d = dst;
  for (size_t r = 0; r < nruns; d += runs[r].n, r++) {
    ptrdiff_t iy = (ptrdiff_t)runs[r].t * ph->ay + ph->offy[j];
    if (iy < 0 || iy >= (ptrdiff_t)H) {
      for (size_t i = 0; i < ph->ni; i++) memset(d + i * jb->nr, 0, runs[r].n * sizeof *d);
      continue;
    }
    jb->evens(plane + (size_t)iy * W + spans[r * ph->ni].ix0, runs[r].n, ph->ni, d, jb->nr);
  }
}

/* Packs the rows of input channels [ch0, ch1) of B of image n, group grp,
 * ncols columns from col0, into its panels, panel by panel: each
 * panel's rows of NR lanes are consecutive, so the writes stream; a panel's
 * lanes split into runs along output rows once, and each run's column spans
 * are found once per tap column. */
static void fwd_gather(const fwd_job *jb, size_t n, size_t grp, size_t col0, size_t ncols, size_t ch0, size_t ch1,
                       float *panels) {
  const pk_conv2d_geom *g = jb->g;
  const conv_phase *ph = jb->ph;
  size_t H = (size_t)g->h, W = (size_t)g->w, NR = jb->nr, cin_g = (size_t)pk_conv2d_cin_g(g), taps = ph->nj * ph->ni;
  const float *plane0 = jb->in + (n * (size_t)g->c_in + grp * cin_g) * H * W;
  for (size_t c0 = col0; c0 < col0 + ncols; c0 += NR) {
    float *dst = panels + ((c0 - col0) / NR * cin_g * taps + ch0 * taps) * NR;
    size_t w = col0 + ncols - c0 < NR ? col0 + ncols - c0 : NR, nruns = 0;
    lane_run runs[CONV_NR_MAX];
    col_span spans[CONV_SPANS];
    for (size_t done = 0, t = c0 / ph->nu, u = c0 % ph->nu; done < w; t++, u = 0) {
      size_t len = ph->nu - u < w - done ? ph->nu - u : w - done;
      runs[nruns++] = (lane_run){t, u, len};
      done += len;
    }
    bool kept = nruns * ph->ni <= CONV_SPANS;
    for (size_t r = 0; kept && r < nruns; r++)
      for (size_t i = 0; i < ph->ni; i++) spans[r * ph->ni + i] = span_of(ph, W, i, &runs[r]);
    bool whole = kept && !jb->identity && spans_whole(jb, runs, nruns, spans);
    for (size_t c = ch0; c < ch1; c++) {
      const float *plane = plane0 + c * H * W;
      for (size_t j = 0; j < ph->nj; j++) {
        if (whole) { /* a kernel row's tap columns in one call per run (ResNet-18's stem: 9% less time) */
          gather_row_taps(jb, plane, H, W, j, runs, nruns, spans, dst);
          for (size_t i = 0; i < ph->ni && w < NR; i++) memset(dst + i * NR + w, 0, (NR - w) * sizeof *dst);
          dst += ph->ni * NR;
          continue;
        }
        for (size_t i = 0; i < ph->ni; i++, dst += NR) {
          if (jb->identity) {
            memcpy(dst, plane + c0, w * sizeof *dst);
          } else {
            float *d = dst;
            for (size_t r = 0; r < nruns; d += runs[r].n, r++) {
              col_span sp = kept ? spans[r * ph->ni + i] : span_of(ph, W, i, &runs[r]);
              gather_lanes(ph, plane, H, W, j, &runs[r], &sp, jb->evens, d);
            }
          }
          if (w < NR) memset(dst + w, 0, (NR - w) * sizeof *dst);
        }
      }
    }
  }
}

/* Unit u (image x group x block): its image, group and columns [*col0, *col1). */
static void fwd_unit(const fwd_job *jb, size_t u, size_t *n, size_t *grp, size_t *col0, size_t *col1) {
  size_t groups = (size_t)jb->g->groups, rest = u / jb->pl.sp.nblocks;
  conv_split_block(&jb->pl.sp, jb->pl.P, u % jb->pl.sp.nblocks, col0, col1);
  *grp = rest % groups;
  *n = rest / groups;
}

/* The product of unit u: columns [col0, col1) of image n, group grp; B
 * packed in bt, or (in_place) the input planes themselves. */
static pk_gemm_f32_args fwd_args(const fwd_job *jb, size_t n, size_t grp, size_t col0, size_t col1,
                                 const char *bt) {
  const pk_conv2d_geom *g = jb->g;
  size_t cout_g = (size_t)pk_conv2d_cout_g(g), P = jb->pl.P;
  pk_f32_operand b = {NULL, 0, 0, bt};
  if (jb->in_place) b = (pk_f32_operand){jb->in + (n * (size_t)g->c_in + grp * jb->pl.K) * P + col0, P, 1, NULL};
  pk_gemm_f32_args a = {cout_g, col1 - col0, jb->pl.K, {NULL, jb->pl.K, 1, jb->packed + grp * jb->pack_stride},
                        b, jb->bias ? jb->bias + grp * cout_g : NULL, NULL,
                        jb->out + (n * (size_t)g->c_out + grp * cout_g) * P + col0, P, jb->min, jb->max, jb->stream};
  return a;
}

/* Share `share` of unit u's product, B (its header written) in bt. */
static void fwd_product(const fwd_job *jb, size_t u, size_t share, const char *bt) {
  size_t n, grp, col0, col1;
  fwd_unit(jb, u, &n, &grp, &col0, &col1);
  if (col1 == col0) return;
  pk_gemm_f32_args a = fwd_args(jb, n, grp, col0, col1, bt);
  pk_gemm_f32_run_share(&a, NULL, jb->pl.sp.shares, share);
}

/* Writes the header of unit u's B in bt; returns its panels (NULL: no columns). */
static float *fwd_b_start(const fwd_job *jb, size_t u, char *bt) {
  size_t n, grp, col0, col1;
  fwd_unit(jb, u, &n, &grp, &col0, &col1);
  return col1 > col0 ? pk_gemm_f32_pack_b_start(bt, jb->pl.K, col1 - col0, jb->isa) : NULL;
}

/* One share per unit: item u gathers unit u's B into the task's slot and multiplies. */
static void fwd_task(void *arg, size_t begin, size_t end) {
  fwd_job *jb = arg;
  size_t slot = slot_claim(&jb->slots), cin_g = (size_t)pk_conv2d_cin_g(jb->g);
  char *bt = jb->ws + slot * jb->pl.slot;
  for (size_t u = begin; u < end; u++) {
    size_t n, grp, col0, col1;
    if (jb->in_place) {
      fwd_product(jb, u, 0, NULL);
      continue;
    }
    float *panels = fwd_b_start(jb, u, bt);
    if (!panels) continue;
    fwd_unit(jb, u, &n, &grp, &col0, &col1);
    fwd_gather(jb, n, grp, col0, col1 - col0, 0, cin_g, panels);
    fwd_product(jb, u, 0, bt);
  }
  slot_release(&jb->slots, slot);
}

/* Shared (several shares per unit), first loop: item (unit, chunk of
 * jb->chunk input channels) gathered into the unit's own B. */
static void fwd_gather_task(void *arg, size_t begin, size_t end) {
  fwd_job *jb = arg;
  size_t cin_g = (size_t)pk_conv2d_cin_g(jb->g);
  for (size_t item = begin; item < end; item++) {
    size_t ch0, ch1, u = conv_group_item(item, cin_g, jb->chunk, &ch0, &ch1), n, grp, col0, col1;
    fwd_unit(jb, u, &n, &grp, &col0, &col1);
    if (col1 > col0)
      fwd_gather(jb, n, grp, col0, col1 - col0, ch0, ch1, pk_gemm_f32_packed_panels(jb->ws + u * jb->pl.slot));
  }
}

/* Shared, second loop: item (unit, share). */
static void fwd_product_task(void *arg, size_t begin, size_t end) {
  fwd_job *jb = arg;
  size_t shares = jb->pl.sp.shares;
  for (size_t item = begin; item < end; item++)
    fwd_product(jb, item / shares, item % shares, jb->ws + item / shares * jb->pl.slot);
}

/* ---- transposed: gather + product per output phase ---- */

static pk_gemm_f32_args gemm_args(size_t M, size_t N, size_t K, const float *a, size_t lda, const float *b,
                                  size_t ldb, const float *bias, float *c, size_t ldc, float min, float max) {
  pk_gemm_f32_args g = {M, N, K, {a, lda, 1, NULL}, {b, ldb, 1, NULL}, bias, NULL, c, ldc, min, max, false};
  return g;
}

typedef struct tr_job {
  const pk_conv2d_geom *g;
  const conv_phase *ph;
  const float *in, *w, *bias;
  float *out;
  float min, max;
  char *ws;
  size_t slot, gws, nb, ntiles, grain; /* gws: the GEMM's bytes at the slot's start */
  slot_set slots;
} tr_job;

/* Tile width nb, the GEMM's share *gws and the per-slot bytes *slot of the
 * transposed path; false on overflow. */
static bool tr_plan(const pk_conv2d_geom *g, size_t *nb, size_t *gws, size_t *slot) {
  size_t cin_g = (size_t)pk_conv2d_cin_g(g), cout_g = (size_t)pk_conv2d_cout_g(g), K, P, a, per;
  if (!mul_ok(cin_g, (size_t)(g->kh * g->kw), &K) || !mul_ok((size_t)g->oh, (size_t)g->ow, &P) ||
      !mul_ok(cout_g, K, &a))
    return false;
  size_t rows = K + cout_g; /* floats per tile column: B and C */
  size_t n = CONV_TILE_BYTES / sizeof(float) / rows;
  n = n < 16 ? 16 : n & ~(size_t)15;
  *nb = n < P ? n : P;
  if (!mul_ok(rows, *nb, &per) || __builtin_add_overflow(per, a, &per) || !mul_ok(per, sizeof(float), &per))
    return false;
  pk_gemm_f32_args ga = gemm_args(cout_g, *nb, K, NULL, K, NULL, *nb, NULL, NULL, *nb, 0.0f, 0.0f);
  *gws = align64(pk_gemm_f32_workspace(&ga, 1));
  if (__builtin_add_overflow(per, *gws, &per) || per > SIZE_MAX - 64) return false;
  *slot = align64(per);
  return true;
}

/* One tile of one phase: the phase's sub-kernel as A[oc, (c, j, i)], the
 * gathered input as B, the product in a tile, then scattered to the phase's
 * output points. Weight [C_in, C_out/g, kh, kw]. */
static void tr_item(const tr_job *jb, size_t item, char *slot) {
  const pk_conv2d_geom *g = jb->g;
  const conv_phase *ph = jb->ph;
  size_t cin_g = (size_t)pk_conv2d_cin_g(g), cout_g = (size_t)pk_conv2d_cout_g(g);
  size_t groups = (size_t)g->groups, tile = item % jb->ntiles, rest = item / jb->ntiles;
  size_t grp = rest % groups, n = rest / groups;
  size_t P = ph->nt * ph->nu, col0 = tile * jb->nb, nb = P - col0 < jb->nb ? P - col0 : jb->nb;
  size_t H = (size_t)g->h, W = (size_t)g->w, OH = (size_t)g->oh, OW = (size_t)g->ow;
  size_t K = cin_g * ph->nj * ph->ni, kh = (size_t)g->kh, kw = (size_t)g->kw;
  const float *plane0 = jb->in + (n * (size_t)g->c_in + grp * cin_g) * H * W;
  float *obase = jb->out + (n * (size_t)g->c_out + grp * cout_g) * OH * OW;
  float *bt = (float *)(slot + jb->gws), *a = bt + K * jb->nb, *ct = a + cout_g * K, *dst = bt;
  for (size_t c = 0; c < cin_g; c++)
    for (size_t j = 0; j < ph->nj; j++)
      for (size_t i = 0; i < ph->ni; i++, dst += nb) gather_run(ph, plane0 + c * H * W, H, W, j, i, col0, nb, dst);
  for (size_t oc = 0; oc < cout_g; oc++) {
    float *arow = a + oc * K;
    for (size_t c = 0; c < cin_g; c++) {
      const float *wk = jb->w + (((grp * cin_g + c) * cout_g + oc) * kh) * kw;
      for (size_t j = 0; j < ph->nj; j++)
        for (size_t i = 0; i < ph->ni; i++) *arow++ = wk[ph->ky[j] * kw + ph->kx[i]];
    }
  }
  pk_gemm_f32_args ga = gemm_args(cout_g, nb, K, a, K, bt, nb, jb->bias ? jb->bias + grp * cout_g : NULL, ct, nb,
                                  jb->min, jb->max);
  pk_gemm_f32_run(&ga, slot, NULL);
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

static void tr_task(void *arg, size_t begin, size_t end) {
  tr_job *jb = arg;
  size_t slot = slot_claim(&jb->slots);
  for (size_t item = begin; item < end; item++) tr_item(jb, item, jb->ws + slot * jb->slot);
  slot_release(&jb->slots, slot);
}

static void tr_run_phase(tr_job *jb, ptera_kernel_ctx *ctx, size_t nthreads) {
  size_t P = jb->ph->nt * jb->ph->nu;
  if (P == 0) return;
  jb->ntiles = (P + jb->nb - 1) / jb->nb;
  size_t items = (size_t)jb->g->n * (size_t)jb->g->groups * jb->ntiles;
  ptera_kernel_parallel_for(ctx, items, slot_grain(items, nthreads), tr_task, jb);
}

static void tr_run(const pk_conv2d_geom *g, const float *in, const float *w, const float *bias, float *out,
                   float min, float max, void *ws, ptera_kernel_ctx *ctx, size_t nthreads) {
  tr_job jb = {.g = g, .in = in, .w = w, .bias = bias, .out = out, .min = min, .max = max, .ws = ws};
  tr_plan(g, &jb.nb, &jb.gws, &jb.slot);
  slots_init(&jb.slots);
  conv_phase ph;
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
      tr_run_phase(&jb, ctx, nthreads);
    }
  }
}

/* ---- planning and entry points ---- */

/* Bytes between two groups' filters packed for isa; 0 when the path packs none. */
static size_t pack_stride(const pk_conv2d_geom *g, pk_isa isa) {
  size_t K;
  if (g->transposed || dw_pick(g) || !mul_ok((size_t)pk_conv2d_cin_g(g), (size_t)(g->kh * g->kw), &K)) return 0;
  return align64(pk_gemm_f32_pack_a_size_isa((size_t)pk_conv2d_cout_g(g), K, isa));
}

size_t pk_conv2d_f32_pack_size(const pk_conv2d_geom *g) {
  if (g->layout == PK_CONV_NHWC) return pk_conv2d_nhwc_pack_size(g);
  if (use_dwcl(g)) return pk_conv2d_dwcl_pack_size(g);
  if (pk_conv2d_wino_applies(g)) return pk_conv2d_wino_pack_size(g);
  if (pk_conv2d_pixrows_applies(g)) return pk_conv2d_pixrows_pack_size(g);
  size_t total;
  if (!mul_ok(pack_stride(g, pk_isa_selected()), (size_t)g->groups, &total)) return SIZE_MAX;
  return total;
}

void pk_conv2d_f32_pack(const pk_conv2d_geom *g, const float *w, void *packed) {
  if (g->layout == PK_CONV_NHWC) {
    pk_conv2d_nhwc_pack(g, w, packed);
    return;
  }
  if (use_dwcl(g)) {
    pk_conv2d_dwcl_pack(g, w, packed);
    return;
  }
  if (pk_conv2d_wino_applies(g)) {
    pk_conv2d_wino_pack(g, w, packed);
    return;
  }
  if (pk_conv2d_pixrows_applies(g)) {
    pk_conv2d_pixrows_pack(g, w, packed);
    return;
  }
  size_t stride = pack_stride(g, pk_isa_selected()), cout_g = (size_t)pk_conv2d_cout_g(g);
  size_t K = (size_t)(pk_conv2d_cin_g(g) * g->kh * g->kw);
  if (!stride) return;
  for (size_t grp = 0; grp < (size_t)g->groups; grp++)
    pk_gemm_f32_pack_a(cout_g, K, w + grp * cout_g * K, K, 1, (char *)packed + grp * stride);
}

void pk_conv2d_f32_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n, const double *scale) {
  if (g->layout == PK_CONV_NHWC) {
    pk_conv2d_nhwc_pack_scale(g, packed, oc0, n, scale);
  } else if (use_dwcl(g)) {
    pk_conv2d_dwcl_pack_scale(g, packed, oc0, n, scale);
  } else if (pk_conv2d_wino_applies(g)) {
    pk_conv2d_wino_pack_scale(g, packed, oc0, n, scale);
  } else if (pk_conv2d_pixrows_applies(g)) {
    pk_conv2d_pixrows_pack_scale(g, packed, oc0, n, scale);
  } else if (!g->transposed && !dw_pick(g)) {
    conv_scale_groups(packed, pack_stride(g, pk_gemm_f32_packed_isa(packed)), (size_t)pk_conv2d_cout_g(g), oc0, n,
                      scale);
  }
}

bool pk_conv2d_f32_same_pack(const pk_conv2d_geom *a, const pk_conv2d_geom *b) {
  return a->c_in == b->c_in && a->c_out == b->c_out && a->groups == b->groups && a->kh == b->kh &&
         a->kw == b->kw && a->transposed == b->transposed && a->layout == b->layout &&
         a->stride[0] == b->stride[0] && a->stride[1] == b->stride[1] && a->dil[0] == b->dil[0] &&
         a->dil[1] == b->dil[1] && pk_conv2d_wino_tile(a) == pk_conv2d_wino_tile(b) &&
         use_dwcl(a) == use_dwcl(b) &&
         pk_conv2d_pixrows_applies(a) == pk_conv2d_pixrows_applies(b);
}

bool pk_conv2d_f32_supported(const pk_conv2d_geom *g) {
  if (g->layout == PK_CONV_NHWC) return !g->transposed;
  return g->layout == PK_CONV_NCHW && g->kh <= CONV_KMAX && g->kw <= CONV_KMAX;
}

size_t pk_conv2d_f32_workspace(const pk_conv2d_geom *g, size_t nthreads) {
  size_t total, slots = slot_count(nthreads);
  if (g->layout == PK_CONV_NHWC) return pk_conv2d_nhwc_workspace(g, nthreads);
  if (use_dwcl(g)) return pk_conv2d_dwcl_workspace(g);
  if (dw_pick(g)) {
    size_t wp, floats = dw_scratch_floats(g, &wp);
    return mul_ok(align64(floats * sizeof(float)), slots, &total) ? total : SIZE_MAX;
  }
  if (pk_conv2d_wino_applies(g)) return pk_conv2d_wino_workspace(g, nthreads);
  if (pk_conv2d_pixrows_applies(g)) return pk_conv2d_pixrows_workspace(g, nthreads);
  if (g->transposed) {
    size_t nb, gws, slot;
    if (!tr_plan(g, &nb, &gws, &slot) || !mul_ok(slot, slots, &total)) return SIZE_MAX;
    return total;
  }
  fwd_plan pl;
  if (!fwd_plan_make(g, nthreads ? nthreads : 1, &pl) || !fwd_ws_bytes(&pl, nthreads, &total)) return SIZE_MAX;
  return total;
}

static void fwd_run(const pk_conv2d_geom *g, const float *in, const void *packed_w, const float *bias, float *out,
                    float min, float max, void *ws, ptera_kernel_ctx *ctx, size_t nthreads) {
  fwd_job jb = {.g = g, .in = in, .bias = bias, .packed = packed_w, .out = out, .min = min, .max = max, .ws = ws};
  jb.isa = pk_gemm_f32_packed_isa(packed_w);
  jb.evens = pk_x32_evens_kernel();
  jb.pack_stride = pack_stride(g, jb.isa);
  jb.nr = pk_gemm_f32_b_panel(jb.isa);
  jb.identity = g->kh == 1 && g->kw == 1 && g->stride[0] == 1 && g->stride[1] == 1 && g->pad[0] == 0 &&
                g->pad[1] == 0;
  fwd_plan_make(g, nthreads, &jb.pl);
  if (jb.pl.P == 0) return;
  /* An output of more than a core's caches a thread is stored around them
   * (pk_gemm_f32_args.stream_c): writing it through them first reads every
   * line in. MobileNetV2's 1x1 16-96 @112 (4.8 MB out) took 859 us that way
   * against 471 us streamed, one thread, in the model. */
  jb.stream = (double)g->n * (double)g->c_out * (double)jb.pl.P * sizeof(float) / (double)nthreads >
              (double)PK_CORE_CACHE_BYTES;
  if (jb.identity) { /* the products read the input planes in place where the GEMM can */
    jb.in_place = true;
    pk_gemm_f32_args probe = fwd_args(&jb, 0, 0, 0, jb.pl.P, NULL);
    jb.in_place = pk_gemm_f32_b_in_place(&probe);
  }
  conv_phase ph;
  ph.nt = (size_t)g->oh;
  ph.nu = (size_t)g->ow;
  ph.y0 = ph.x0 = 0;
  ph.ys = ph.xs = 1;
  ph.ay = (ptrdiff_t)g->stride[0];
  ph.ax = (ptrdiff_t)g->stride[1];
  ph.nj = phase_taps(false, g->kh, g->stride[0], g->pad[0], g->dil[0], 0, ph.offy, ph.ky);
  ph.ni = phase_taps(false, g->kw, g->stride[1], g->pad[1], g->dil[1], 0, ph.offx, ph.kx);
  jb.ph = &ph;
  slots_init(&jb.slots);
  size_t units = jb.pl.units, shares = jb.pl.sp.shares;
  if (shares == 1) {
    ptera_kernel_parallel_for(ctx, units, slot_grain(units, nthreads), fwd_task, &jb);
    return;
  }
  if (jb.in_place) {
    ptera_kernel_parallel_for(ctx, units * shares, 1, fwd_product_task, &jb);
    return;
  }
  size_t cin_g = (size_t)pk_conv2d_cin_g(g);
  jb.chunk = conv_group_size(cin_g, units, nthreads);
  for (size_t u = 0; u < units; u++) fwd_b_start(&jb, u, jb.ws + u * jb.pl.slot);
  ptera_kernel_parallel_for(ctx, units * conv_groups(cin_g, jb.chunk), 1, fwd_gather_task, &jb);
  ptera_kernel_parallel_for(ctx, units * shares, 1, fwd_product_task, &jb);
}

void pk_conv2d_f32(const pk_conv2d_geom *g, const float *in, const float *w, const void *packed_w,
                   const float *bias, float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx) {
  size_t nthreads = ptera_kernel_thread_count(ctx);
  if (g->layout == PK_CONV_NHWC) {
    if (!packed_w) { /* packed per call, into the front of the workspace */
      pk_conv2d_nhwc_pack(g, w, ws);
      packed_w = ws;
      ws = (char *)ws + pk_conv2d_nhwc_pack_size(g);
    }
    pk_conv2d_nhwc_run(g, in, packed_w, bias, out, min, max, ws, ctx);
    return;
  }
  pk_f32_dwconv2d_fn dw = use_dwcl(g) ? NULL : dw_pick(g);
  if (dw) {
    dw_job j = {.g = g, .fn = dw, .in = in, .w = w, .bias = bias, .out = out, .ws = ws,
                .p = {(size_t)g->h, (size_t)g->w, (size_t)g->oh, (size_t)g->ow, (size_t)g->pad[0],
                      (size_t)g->pad[1], min, max, 0, NULL}};
    j.slot = align64(dw_scratch_floats(g, &j.p.wp) * sizeof(float));
    slots_init(&j.slots);
    size_t planes = (size_t)(g->n * g->c_in), grain = (planes + 4 * nthreads - 1) / (4 * nthreads);
    ptera_kernel_parallel_for(ctx, planes, grain, dw_task, &j);
    return;
  }
  if (g->transposed) {
    tr_run(g, in, w, bias, out, min, max, ws, ctx, nthreads);
    return;
  }
  char *rest = ws;
  if (!packed_w) { /* the filters packed per call, into the front of the workspace */
    pk_conv2d_f32_pack(g, w, ws);
    packed_w = ws;
    rest += pk_conv2d_f32_pack_size(g);
  }
  if (use_dwcl(g))
    pk_conv2d_dwcl_run(g, in, packed_w, bias, out, min, max, rest, ctx);
  else if (pk_conv2d_wino_applies(g))
    pk_conv2d_wino_run(g, in, packed_w, bias, out, min, max, rest, ctx);
  else if (pk_conv2d_pixrows_applies(g))
    pk_conv2d_pixrows_run(g, in, packed_w, bias, out, min, max, rest, ctx);
  else
    fwd_run(g, in, packed_w, bias, out, min, max, rest, ctx, nthreads);
}

/* Winograd convolution driver (conv2d_winograd.h), F(2x2, 3x3) or
 * F(4x4, 3x3) (the kind, chosen from the geometry alone, so the packed
 * filters and the run agree on it): A alphas, 16 or 36.
 *
 * Filters: A packed A matrices U_a [C_out, C_in], 64-byte aligned,
 * ustride bytes apart. Per image and block of nbt tiles (a unit), a region:
 * A packed B matrices V_a [C_in, tiles] vstride bytes apart and the A
 * products M_a [C_out, nbt] (row stride nbt); per task, one channel's input
 * transform [A, nbt] (lanes contiguous, then copied into the panels).
 * With one share per unit a task's slot holds the unit's region and its
 * transform buffer, and one item does the whole unit. With several shares
 * (few tiles for the threads: the split asks for the work inside a unit to
 * be cut) each unit has a region of its own and three parallel loops fill
 * it: the input transform (items of input channels), the A products
 * (items of whole products, every row: a row split would leave the GEMM
 * partial tiles of a few rows), then the output transform (items of output
 * channels). */
#include "cpu/conv2d_winograd.h"

#include <math.h>
#include <string.h>

#include "cpu/conv2d_slots.h"
#include "cpu/conv2d_split.h"
#include "cpu/gemm.h"
#include "cpu/isa.h"
#include "cpu/ukernels/winograd/winograd.h"

#define WINO_SLOT_BYTES ((size_t)1 << 20) /* per-task V and M budget */
#define WINO_COL_STEP 32u                 /* tile blocks: whole B panels */
#define WINO_NR_MAX 32u                   /* widest B panel of any ISA */
#define WINO_SHARED_UNITS 2u              /* units per thread below which units are cut (shared) */
#define WINO_MIN_CHANNELS 16
#define WINO_MIN_PIXELS 100 /* below this the tile blocks are too thin for the GEMM */

/* One Winograd size: m x m output tiles, (m + 2)^2 alphas. */
typedef struct wino_kind {
  size_t m, alphas;
  void (*filter)(const float *g, float *u, size_t a_stride);
} wino_kind;

static const wino_kind wino_f23 = {2, 16, pk_f32_wino23_filter_scalar};
static const wino_kind wino_f43 = {4, 36, pk_f32_wino43_filter_scalar};

static bool mul_ok(size_t a, size_t b, size_t *r) { return !__builtin_mul_overflow(a, b, r); }
static size_t align64(size_t x) { return (x + 63) & ~(size_t)63; }

static size_t tiles_of(const pk_conv2d_geom *g, size_t m) {
  return ((size_t)g->oh + m - 1) / m * (((size_t)g->ow + m - 1) / m);
}

/* What kind kd's products cost on g: alphas times the tiles (the partial
 * ones at the bottom and right edges counted whole) in whole blocks, as
 * the GEMM runs them. */
static size_t products_cost(const pk_conv2d_geom *g, const wino_kind *kd) {
  size_t t = tiles_of(g, kd->m);
  return kd->alphas * (t / WINO_COL_STEP + (t % WINO_COL_STEP != 0));
}

/* The kind g takes, NULL where the path does not apply. */
static const wino_kind *wino_kind_of(const pk_conv2d_geom *g) {
  if (!(g->layout == PK_CONV_NCHW && !g->transposed && g->groups == 1 && g->kh == 3 && g->kw == 3 &&
        g->stride[0] == 1 && g->stride[1] == 1 && g->dil[0] == 1 && g->dil[1] == 1 &&
        g->c_in >= WINO_MIN_CHANNELS && g->c_out >= WINO_MIN_CHANNELS && g->oh * g->ow >= WINO_MIN_PIXELS))
    return NULL;
  /* F(4x4) where its products cost at most 4/5 of F(2x2)'s (the rest
   * covers F(4x4)'s edge tiles, more of them one at a time). 14x14: 36 x 1
   * against 16 x 2 blocks, F(2x2); 20x20: 36 x 1 against 16 x 4, F(4x4);
   * 24x24: 36 x 2 against 16 x 5, about even when measured, F(2x2). */
  return 5 * products_cost(g, &wino_f43) <= 4 * products_cost(g, &wino_f23) ? &wino_f43 : &wino_f23;
}

bool pk_conv2d_wino_applies(const pk_conv2d_geom *g) { return wino_kind_of(g) != NULL; }

size_t pk_conv2d_wino_tile(const pk_conv2d_geom *g) {
  const wino_kind *k = wino_kind_of(g);
  return k ? k->m : 0;
}

static size_t ustride(const pk_conv2d_geom *g, pk_isa isa) {
  return align64(pk_gemm_f32_pack_a_size_isa((size_t)g->c_out, (size_t)g->c_in, isa));
}

size_t pk_conv2d_wino_pack_size(const pk_conv2d_geom *g) {
  size_t total;
  return mul_ok(ustride(g, pk_isa_selected()), wino_kind_of(g)->alphas, &total) ? total : SIZE_MAX;
}

void pk_conv2d_wino_pack(const pk_conv2d_geom *g, const float *w, void *packed) {
  pk_isa isa = pk_isa_selected();
  const wino_kind *kd = wino_kind_of(g);
  size_t M = (size_t)g->c_out, K = (size_t)g->c_in, MR = pk_gemm_f32_a_panel(isa), us = ustride(g, isa);
  float *u0 = NULL;
  for (size_t a = 0; a < kd->alphas; a++) {
    float *u = pk_gemm_f32_pack_a_start((char *)packed + a * us, M, K, isa);
    if (!a) u0 = u;
    memset(u, 0, (M + MR - 1) / MR * MR * K * sizeof *u); /* lanes past M */
  }
  for (size_t co = 0; co < M; co++)
    for (size_t ci = 0; ci < K; ci++)
      kd->filter(w + (co * K + ci) * 9, u0 + ((co / MR) * K + ci) * MR + co % MR, us / sizeof(float));
}

void pk_conv2d_wino_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n, const double *scale) {
  size_t us = ustride(g, pk_gemm_f32_packed_isa(packed)), A = wino_kind_of(g)->alphas;
  for (size_t a = 0; a < A; a++) /* the transforms are linear: scale each U_a */
    pk_gemm_f32_packed_scale((char *)packed + a * us, oc0, n, scale);
}

typedef struct wino_plan {
  const wino_kind *kind;
  size_t tiles, nbt, vstride; /* nbt: tiles of the widest block */
  size_t region, tmp;         /* bytes of a unit's V and M, of a task's transform buffer */
  size_t units;               /* images x blocks */
  bool shared;                /* several shares: one region per unit, transformed once */
  conv_split sp;
} wino_plan;

static bool wino_plan_make(const pk_conv2d_geom *g, size_t nthreads, wino_plan *pl) {
  const wino_kind *kd = wino_kind_of(g);
  size_t tiles = tiles_of(g, kd->m), col, A = kd->alphas;
  size_t cin = (size_t)g->c_in, cout = (size_t)g->c_out;
  if (!mul_ok(cin + cout, A * sizeof(float), &col)) return false;
  conv_split sp = conv_split_make(tiles, WINO_COL_STEP, WINO_SLOT_BYTES / col, (size_t)g->n, cout, nthreads);
  size_t nbt = sp.bmax, vs, vbytes, mbytes, region, tmp, units;
  if (!mul_ok(nbt + WINO_NR_MAX - 1, cin * sizeof(float), &vs) || vs > SIZE_MAX - 128) return false;
  vs = align64(vs + 64);
  if (!mul_ok(vs, A, &vbytes) || !mul_ok(nbt * A, cout * sizeof(float), &mbytes) ||
      __builtin_add_overflow(vbytes, mbytes, &region) || region > SIZE_MAX - 64 ||
      !mul_ok(nbt * A, sizeof(float), &tmp) || tmp > SIZE_MAX - 64 || !mul_ok((size_t)g->n, sp.nblocks, &units))
    return false;
  /* the split asks for work inside units; cut them only when there are
   * fewer than two a thread and the threads cannot have as many each
   * (more, or as many: whole units keep each region in cache, and claiming
   * them one at a time balances well enough) */
  bool shared = sp.shares > 1 && units < WINO_SHARED_UNITS * nthreads && units % nthreads;
  *pl = (wino_plan){kd, tiles, nbt, vs, align64(region), align64(tmp), units, shared, sp};
  return true;
}

/* Bytes of the workspace: a slot (region and buffer) per task, or a region
 * per unit and a buffer per task (shared). */
static bool wino_ws_bytes(const wino_plan *pl, size_t nthreads, size_t *total) {
  size_t slots = slot_count(nthreads), a, b;
  if (!pl->shared) return !__builtin_add_overflow(pl->region, pl->tmp, &a) && mul_ok(a, slots, total);
  return mul_ok(pl->region, pl->units, &a) && mul_ok(pl->tmp, slots, &b) && !__builtin_add_overflow(a, b, total);
}

size_t pk_conv2d_wino_workspace(const pk_conv2d_geom *g, size_t nthreads) {
  wino_plan pl;
  size_t total = 0;
  if (!wino_plan_make(g, nthreads ? nthreads : 1, &pl) || !wino_ws_bytes(&pl, nthreads, &total)) return SIZE_MAX;
  return total;
}

typedef struct wino_fns {
  pk_f32_wino_input_fn input;
  pk_f32_wino_output_fn output;
} wino_fns;

#define WINO_FNS(f, isa) ((wino_fns){pk_f32_##f##_input_##isa, pk_f32_##f##_output_##isa})

/* The transforms of kind kd for isa. */
static wino_fns wino_pick(const wino_kind *kd, pk_isa isa) {
  bool f43 = kd == &wino_f43;
  switch (isa) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: return f43 ? WINO_FNS(wino43, avx512) : WINO_FNS(wino23, avx512);
    case PK_ISA_AVX2: return f43 ? WINO_FNS(wino43, avx2) : WINO_FNS(wino23, avx2);
#elif defined(__aarch64__)
    case PK_ISA_NEON: return f43 ? WINO_FNS(wino43, neon) : WINO_FNS(wino23, neon);
#endif
    default: return f43 ? WINO_FNS(wino43, scalar) : WINO_FNS(wino23, scalar);
  }
}

typedef struct wino_job {
  const pk_conv2d_geom *g;
  const float *in, *bias;
  const char *packed;
  float *out;
  float min, max;
  pk_isa isa;
  wino_fns fn;
  size_t nr, ustride;
  pk_wino_plane plane;
  wino_plan pl;
  size_t chunk, agroup, rows; /* shared: input channels, products, output channels an item takes */
  char *ws;
  slot_set slots;
} wino_job;

/* Tiles [*t0, *t0 + return) of unit (image, block) u; *n its image. */
static size_t unit_tiles(const wino_plan *pl, size_t u, size_t *t0, size_t *n) {
  size_t t1;
  conv_split_block(&pl->sp, pl->tiles, u % pl->sp.nblocks, t0, &t1);
  *n = u / pl->sp.nblocks;
  return t1 - *t0;
}

/* The headers of unit u's V_a in its region. */
static void wino_v_headers(const wino_job *jb, size_t u, char *region) {
  size_t t0, n, nt = unit_tiles(&jb->pl, u, &t0, &n);
  for (size_t a = 0; nt && a < jb->pl.kind->alphas; a++)
    pk_gemm_f32_pack_b_start(region + a * jb->pl.vstride, (size_t)jb->g->c_in, nt, jb->isa);
}

/* Input channels [c0, c1) of unit u transformed into the V panels of its
 * region (headers written); tmp: this task's transform buffer. */
static void wino_transform(const wino_job *jb, size_t u, size_t c0, size_t c1, char *region, float *tmp) {
  const pk_conv2d_geom *g = jb->g;
  const wino_plan *pl = &jb->pl;
  size_t cin = (size_t)g->c_in, NR = jb->nr, t0, n, nt = unit_tiles(pl, u, &t0, &n);
  size_t HW = (size_t)(g->h * g->w), vs = pl->vstride / sizeof(float);
  if (!nt) return;
  float *v0 = pk_gemm_f32_packed_panels(region); /* the same offset in every V_a */
  const float *in = jb->in + n * cin * HW;
  for (size_t c = c0; c < c1; c++) {
    jb->fn.input(&jb->plane, in + c * HW, t0, nt, tmp, pl->nbt);
    for (size_t p = 0; p * NR < nt; p++) { /* into the panels */
      size_t w = nt - p * NR < NR ? nt - p * NR : NR;
      float *v = v0 + (p * cin + c) * NR;
      for (size_t a = 0; a < pl->kind->alphas; a++) {
        memcpy(v + a * vs, tmp + a * pl->nbt + p * NR, w * sizeof *v);
        if (w < NR) memset(v + a * vs + w, 0, (NR - w) * sizeof *v);
      }
    }
  }
}

/* Products a0 .. a1 - 1 of unit u, every row, from the region's V into its M. */
static void wino_gemms(const wino_job *jb, size_t u, size_t a0, size_t a1, char *region) {
  const pk_conv2d_geom *g = jb->g;
  const wino_plan *pl = &jb->pl;
  size_t cin = (size_t)g->c_in, cout = (size_t)g->c_out, t0, n, nt = unit_tiles(pl, u, &t0, &n);
  if (!nt) return;
  float *m = (float *)(region + pl->kind->alphas * pl->vstride);
  for (size_t a = a0; a < a1; a++) {
    pk_gemm_f32_args ga = {cout, nt, cin, {NULL, cin, 1, jb->packed + a * jb->ustride},
                           {NULL, 0, 0, region + a * pl->vstride}, NULL, NULL, m + a * cout * pl->nbt, pl->nbt,
                           -INFINITY, INFINITY, false};
    pk_gemm_f32_run_share(&ga, NULL, 1, 0);
  }
}

/* The output transform of unit u's output channels m0 .. m1 - 1 from the region's M. */
static void wino_outputs(const wino_job *jb, size_t u, size_t m0, size_t m1, const char *region) {
  const pk_conv2d_geom *g = jb->g;
  const wino_plan *pl = &jb->pl;
  size_t cout = (size_t)g->c_out, OHW = (size_t)(g->oh * g->ow), t0, n, nt = unit_tiles(pl, u, &t0, &n);
  if (!nt) return;
  const float *m = (const float *)(region + pl->kind->alphas * pl->vstride);
  float *out = jb->out + n * cout * OHW;
  for (size_t co = m0; co < m1; co++)
    jb->fn.output(&jb->plane, m + co * pl->nbt, cout * pl->nbt, t0, nt, jb->bias ? jb->bias[co] : 0.0f, jb->min,
                  jb->max, out + co * OHW);
}

/* One share per unit: item u transforms and multiplies unit u in a slot. */
static void wino_task(void *arg, size_t begin, size_t end) {
  wino_job *jb = arg;
  size_t slot = slot_claim(&jb->slots);
  char *region = jb->ws + slot * (jb->pl.region + jb->pl.tmp);
  for (size_t u = begin; u < end; u++) {
    wino_v_headers(jb, u, region);
    wino_transform(jb, u, 0, (size_t)jb->g->c_in, region, (float *)(region + jb->pl.region));
    wino_gemms(jb, u, 0, jb->pl.kind->alphas, region);
    wino_outputs(jb, u, 0, (size_t)jb->g->c_out, region);
  }
  slot_release(&jb->slots, slot);
}

/* Shared, first loop: item (unit, channel chunk of `chunk` channels). */
static void wino_transform_task(void *arg, size_t begin, size_t end) {
  wino_job *jb = arg;
  size_t slot = slot_claim(&jb->slots), cin = (size_t)jb->g->c_in;
  float *tmp = (float *)(jb->ws + jb->pl.units * jb->pl.region + slot * jb->pl.tmp);
  for (size_t item = begin; item < end; item++) {
    size_t c0, c1, u = conv_group_item(item, cin, jb->chunk, &c0, &c1);
    wino_transform(jb, u, c0, c1, jb->ws + u * jb->pl.region, tmp);
  }
  slot_release(&jb->slots, slot);
}

/* Shared, second loop: item (unit, group of jb->agroup products), every row. */
static void wino_gemms_task(void *arg, size_t begin, size_t end) {
  wino_job *jb = arg;
  size_t A = jb->pl.kind->alphas;
  for (size_t item = begin; item < end; item++) {
    size_t a0, a1, u = conv_group_item(item, A, jb->agroup, &a0, &a1);
    wino_gemms(jb, u, a0, a1, jb->ws + u * jb->pl.region);
  }
}

/* Shared, third loop: item (unit, chunk of jb->rows output channels). */
static void wino_outputs_task(void *arg, size_t begin, size_t end) {
  wino_job *jb = arg;
  size_t cout = (size_t)jb->g->c_out;
  for (size_t item = begin; item < end; item++) {
    size_t m0, m1, u = conv_group_item(item, cout, jb->rows, &m0, &m1);
    wino_outputs(jb, u, m0, m1, jb->ws + u * jb->pl.region);
  }
}

void pk_conv2d_wino_run(const pk_conv2d_geom *g, const float *in, const void *packed, const float *bias,
                        float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx) {
  size_t nthreads = ptera_kernel_thread_count(ctx);
  wino_job jb = {.g = g, .in = in, .bias = bias, .packed = packed, .out = out, .min = min, .max = max, .ws = ws};
  jb.isa = pk_gemm_f32_packed_isa(packed);
  jb.nr = pk_gemm_f32_b_panel(jb.isa);
  jb.ustride = ustride(g, jb.isa);
  if (!wino_plan_make(g, nthreads, &jb.pl)) return;
  size_t m = jb.pl.kind->m;
  jb.fn = wino_pick(jb.pl.kind, jb.isa);
  jb.plane = (pk_wino_plane){(size_t)g->h, (size_t)g->w, (size_t)g->oh, (size_t)g->ow,
                             (size_t)g->pad[0], (size_t)g->pad[1], ((size_t)g->ow + m - 1) / m};
  slots_init(&jb.slots);
  if (!jb.pl.shared) {
    ptera_kernel_parallel_for(ctx, jb.pl.units, slot_grain(jb.pl.units, nthreads), wino_task, &jb);
    return;
  }
  size_t units = jb.pl.units, cin = (size_t)g->c_in, cout = (size_t)g->c_out, A = jb.pl.kind->alphas;
  jb.chunk = conv_group_size(cin, units, nthreads);
  jb.agroup = conv_group_size(A, units, nthreads);
  jb.rows = conv_group_size(cout, units, nthreads);
  for (size_t u = 0; u < units; u++) wino_v_headers(&jb, u, jb.ws + u * jb.pl.region);
  size_t items = units * conv_groups(cin, jb.chunk);
  ptera_kernel_parallel_for(ctx, items, slot_grain(items, nthreads), wino_transform_task, &jb);
  ptera_kernel_parallel_for(ctx, units * conv_groups(A, jb.agroup), 1, wino_gemms_task, &jb);
  ptera_kernel_parallel_for(ctx, units * conv_groups(cout, jb.rows), 1, wino_outputs_task, &jb);
}

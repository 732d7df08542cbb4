/* Channels-last f32 convolution (conv2d_nhwc.h). */
#include "cpu/conv2d_nhwc.h"

#include <math.h>
#include <string.h>

#include "cpu/conv2d_slots.h"
#include "cpu/conv2d_split.h"
#include "cpu/gemm.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwconv_nhwc.h"

#define NHWC_TILE_BYTES ((size_t)256 << 10) /* A tile per task (in L2) */
#define NHWC_ROW_STEP 16u                   /* tile heights are multiples of this */

static bool mul_ok(size_t a, size_t b, size_t *r) { return !__builtin_mul_overflow(a, b, r); }
static size_t align64(size_t x) { return (x + 63) & ~(size_t)63; }

static size_t taps(const pk_conv2d_geom *g) { return (size_t)(g->kh * g->kw); }

static bool identity(const pk_conv2d_geom *g) {
  return g->kh == 1 && g->kw == 1 && g->stride[0] == 1 && g->stride[1] == 1 && g->pad[0] == 0 && g->pad[1] == 0;
}

/* ---- depthwise: the dwconv_nhwc micro-kernels, one output row a call ---- */

static pk_f32_dwconv_nhwc_fn dw_pick(void) {
  switch (pk_isa_selected()) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: return pk_f32_dwconv_nhwc_avx512;
    case PK_ISA_AVX2: return pk_f32_dwconv_nhwc_avx2;
#elif defined(__aarch64__)
    case PK_ISA_NEON: return pk_f32_dwconv_nhwc_neon;
#endif
    default: return pk_f32_dwconv_nhwc_scalar;
  }
}

typedef struct dw_job {
  const pk_conv2d_geom *g;
  pk_f32_dwconv_nhwc_fn fn;
  const float *in;
  float *out;
  pk_dwconv_nhwc_row row; /* what every row shares */
} dw_job;

static void dw_task(void *arg, size_t begin, size_t end) {
  const dw_job *j = arg;
  const pk_conv2d_geom *g = j->g;
  size_t OH = (size_t)g->oh, img = (size_t)(g->h * g->w * g->c_in), orow = (size_t)(g->ow * g->c_out);
  pk_dwconv_nhwc_row p = j->row;
  for (size_t r = begin; r < end; r++) {
    size_t n = r / OH, oy = r % OH;
    p.img = j->in + n * img;
    p.iy0 = (ptrdiff_t)(oy * (size_t)g->stride[0]) - (ptrdiff_t)g->pad[0];
    j->fn(&p, j->out + r * orow);
  }
}

/* ---- gathered rows x packed filters ---- */

typedef struct nhwc_plan {
  size_t K, P, mb, ntiles, shares, tile, gws, slot; /* tile: A bytes; gws: the GEMM's */
} nhwc_plan;

static bool nhwc_plan_make(const pk_conv2d_geom *g, size_t nthreads, nhwc_plan *pl) {
  size_t K, P, row;
  if (!mul_ok((size_t)pk_conv2d_cin_g(g), taps(g), &K) || !mul_ok((size_t)g->oh, (size_t)g->ow, &P) ||
      !mul_ok(K ? K : 1, sizeof(float), &row))
    return false;
  size_t mb = NHWC_TILE_BYTES / row / NHWC_ROW_STEP * NHWC_ROW_STEP;
  if (mb < NHWC_ROW_STEP) mb = NHWC_ROW_STEP;
  size_t ntiles = (P + mb - 1) / mb, outer = (size_t)(g->n * g->groups), shares = 1;
  if (nthreads > 1 && outer * ntiles < 4 * nthreads)
    ntiles = ((outer * ntiles + nthreads - 1) / nthreads * nthreads + outer - 1) / outer;
  mb = (P + ntiles - 1) / ntiles;
  mb = (mb + NHWC_ROW_STEP - 1) / NHWC_ROW_STEP * NHWC_ROW_STEP;
  if (mb > P) mb = P;
  ntiles = (P + mb - 1) / mb;
  if (nthreads > 1 && outer * ntiles < nthreads) shares = nthreads;
  size_t tile = 0, gws, slot;
  if (!identity(g) && !mul_ok(mb, row, &tile)) return false;
  gws = 0; /* for whichever ISA the filters were packed under */
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    size_t b = pk_gemm_f32_workspace_b_packed(mb, (size_t)pk_conv2d_cout_g(g), K, false, (pk_isa)isa, shares);
    gws = b > gws ? b : gws;
  }
  if (gws > SIZE_MAX - 64 || __builtin_add_overflow(align64(tile), align64(gws), &slot) || slot > SIZE_MAX - 64)
    return false;
  *pl = (nhwc_plan){K, P, mb, ntiles, shares, align64(tile), align64(gws), align64(slot)};
  return true;
}

/* Bytes between two groups' filters packed for isa. */
static size_t pack_stride(const pk_conv2d_geom *g, pk_isa isa) {
  size_t K;
  if (!mul_ok((size_t)pk_conv2d_cin_g(g), taps(g), &K)) return 0;
  return align64(pk_gemm_f32_pack_b_size_isa(K, (size_t)pk_conv2d_cout_g(g), isa));
}

size_t pk_conv2d_nhwc_pack_size(const pk_conv2d_geom *g) {
  size_t total;
  if (pk_conv2d_is_depthwise(g)) return mul_ok((size_t)g->c_in * sizeof(float), taps(g), &total) ? total : SIZE_MAX;
  return mul_ok(pack_stride(g, pk_isa_selected()), (size_t)g->groups, &total) ? total : SIZE_MAX;
}

void pk_conv2d_nhwc_pack(const pk_conv2d_geom *g, const float *w, void *packed) {
  size_t T = taps(g);
  if (pk_conv2d_is_depthwise(g)) { /* [C, taps] -> [taps, C] */
    float *d = packed;
    size_t C = (size_t)g->c_in;
    for (size_t c = 0; c < C; c++)
      for (size_t t = 0; t < T; t++) d[t * C + c] = w[c * T + t];
    return;
  }
  size_t K = (size_t)pk_conv2d_cin_g(g) * T, cout_g = (size_t)pk_conv2d_cout_g(g);
  size_t stride = pack_stride(g, pk_isa_selected());
  for (size_t grp = 0; grp < (size_t)g->groups; grp++) /* B(k, o) = w[grp*cout_g + o][k] */
    pk_gemm_f32_pack_b(K, cout_g, w + grp * cout_g * K, 1, K, (char *)packed + grp * stride);
}

void pk_conv2d_nhwc_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n, const double *scale) {
  if (pk_conv2d_is_depthwise(g)) { /* [taps, C] */
    float *d = packed;
    size_t C = (size_t)g->c_in;
    for (size_t t = 0; t < taps(g); t++)
      for (size_t c = oc0; c < oc0 + n; c++) d[t * C + c] = (float)((double)d[t * C + c] * scale[c - oc0]);
    return;
  }
  conv_scale_groups(packed, pack_stride(g, pk_gemm_f32_packed_isa(packed)), (size_t)pk_conv2d_cout_g(g), oc0, n,
                    scale);
}

size_t pk_conv2d_nhwc_workspace(const pk_conv2d_geom *g, size_t nthreads) {
  nhwc_plan pl;
  size_t total;
  if (pk_conv2d_is_depthwise(g)) return 0;
  if (!nhwc_plan_make(g, nthreads ? nthreads : 1, &pl) || !mul_ok(pl.slot, slot_count(nthreads), &total))
    return SIZE_MAX;
  return total;
}

typedef struct nhwc_job {
  const pk_conv2d_geom *g;
  const float *in, *bias;
  const char *packed;
  size_t pack_stride;
  float *out;
  float min, max;
  nhwc_plan pl;
  char *ws;
  slot_set slots;
} nhwc_job;

/* Rows [p0, p0 + m) of A for image n, group grp: row p holds, tap by tap,
 * the group's cin_g channels of the pixel the tap reads (zero outside).
 * With one group and no column dilation a kernel row's in-bounds taps read
 * adjacent pixels, one contiguous run of channels: one copy per kernel row. */
static void nhwc_gather(const nhwc_job *jb, size_t n, size_t grp, size_t p0, size_t m, float *a) {
  const pk_conv2d_geom *g = jb->g;
  size_t H = (size_t)g->h, W = (size_t)g->w, C = (size_t)g->c_in, OW = (size_t)g->ow;
  size_t cin_g = (size_t)pk_conv2d_cin_g(g), kh = (size_t)g->kh, kw = (size_t)g->kw;
  bool runs = g->groups == 1 && g->dil[1] == 1;
  const float *img = jb->in + n * H * W * C + grp * cin_g;
  for (size_t p = p0; p < p0 + m; p++) {
    size_t oy = p / OW, ox = p % OW;
    ptrdiff_t ix0 = (ptrdiff_t)(ox * (size_t)g->stride[1]) - (ptrdiff_t)g->pad[1];
    for (size_t ky = 0; ky < kh; ky++) {
      ptrdiff_t iy = (ptrdiff_t)(oy * (size_t)g->stride[0] + ky * (size_t)g->dil[0]) - (ptrdiff_t)g->pad[0];
      if (iy < 0 || iy >= (ptrdiff_t)H) {
        memset(a, 0, kw * cin_g * sizeof *a);
        a += kw * cin_g;
        continue;
      }
      const float *row = img + (size_t)iy * W * C;
      if (runs) { /* taps [k0, k1) inside the row: 0 <= ix0 + k < W */
        ptrdiff_t lo = -ix0, hi = (ptrdiff_t)W - ix0;
        size_t k0 = lo <= 0 ? 0 : lo >= (ptrdiff_t)kw ? kw : (size_t)lo;
        size_t k1 = hi <= (ptrdiff_t)k0 ? k0 : hi >= (ptrdiff_t)kw ? kw : (size_t)hi;
        memset(a, 0, k0 * C * sizeof *a);
        if (k1 > k0) memcpy(a + k0 * C, row + (size_t)(ix0 + (ptrdiff_t)k0) * C, (k1 - k0) * C * sizeof *a);
        memset(a + k1 * C, 0, (kw - k1) * C * sizeof *a);
        a += kw * C;
        continue;
      }
      for (size_t kx = 0; kx < kw; kx++, a += cin_g) {
        ptrdiff_t ix = ix0 + (ptrdiff_t)(kx * (size_t)g->dil[1]);
        if (ix < 0 || ix >= (ptrdiff_t)W)
          memset(a, 0, cin_g * sizeof *a);
        else
          memcpy(a, row + (size_t)ix * C, cin_g * sizeof *a);
      }
    }
  }
}

static void nhwc_task(void *arg, size_t begin, size_t end) {
  nhwc_job *jb = arg;
  const pk_conv2d_geom *g = jb->g;
  const nhwc_plan *pl = &jb->pl;
  size_t slot = slot_claim(&jb->slots), groups = (size_t)g->groups, gathered = SIZE_MAX;
  char *base = jb->ws + slot * pl->slot;
  float *a = (float *)base;
  size_t cin_g = (size_t)pk_conv2d_cin_g(g), cout_g = (size_t)pk_conv2d_cout_g(g), C = (size_t)g->c_in;
  for (size_t item = begin; item < end; item++) {
    size_t unit = item / pl->shares, tile = unit % pl->ntiles, rest = unit / pl->ntiles;
    size_t grp = rest % groups, n = rest / groups, p0 = tile * pl->mb;
    size_t m = pl->P - p0 < pl->mb ? pl->P - p0 : pl->mb;
    const float *ap = a;
    size_t lda = pl->K;
    if (identity(g)) {
      ap = jb->in + (n * pl->P + p0) * C + grp * cin_g;
      lda = C;
    } else if (unit != gathered) {
      nhwc_gather(jb, n, grp, p0, m, a);
      gathered = unit;
    }
    pk_gemm_f32_args ga = {m, cout_g, pl->K, {ap, lda, 1, NULL}, {NULL, 0, 0, jb->packed + grp * jb->pack_stride},
                           NULL, jb->bias ? jb->bias + grp * cout_g : NULL,
                           jb->out + (n * pl->P + p0) * (size_t)g->c_out + grp * cout_g, (size_t)g->c_out,
                           jb->min, jb->max, false};
    pk_gemm_f32_run_share(&ga, base + pl->tile, pl->shares, item % pl->shares);
  }
  slot_release(&jb->slots, slot);
}

void pk_conv2d_nhwc_run(const pk_conv2d_geom *g, const float *in, const void *packed, const float *bias,
                        float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx) {
  size_t nthreads = ptera_kernel_thread_count(ctx);
  if (pk_conv2d_is_depthwise(g)) { /* packed: the filters as [taps, C] */
    dw_job j = {g, dw_pick(), in, out,
                {NULL, packed, bias, 0, (size_t)g->c_in, (size_t)g->kh, (size_t)g->kw, (size_t)g->h, (size_t)g->w,
                 (size_t)g->ow, (size_t)g->dil[0], (size_t)g->stride[1], (size_t)g->dil[1], (size_t)g->pad[1], min,
                 max}};
    size_t rows = (size_t)(g->n * g->oh);
    ptera_kernel_parallel_for(ctx, rows, (rows + 4 * nthreads - 1) / (4 * nthreads), dw_task, &j);
    return;
  }
  nhwc_job jb = {.g = g, .in = in, .bias = bias, .packed = packed, .out = out, .min = min, .max = max, .ws = ws};
  jb.pack_stride = pack_stride(g, pk_gemm_f32_packed_isa(packed));
  if (!nhwc_plan_make(g, nthreads, &jb.pl) || jb.pl.P == 0) return;
  slots_init(&jb.slots);
  size_t items = (size_t)(g->n * g->groups) * jb.pl.ntiles * jb.pl.shares;
  ptera_kernel_parallel_for(ctx, items, slot_grain(items, nthreads), nhwc_task, &jb);
}

/* The f32 GEMM driver (gemm.h): packing, cache blocking, the thread split and
 * the dispatch to one ISA's micro-kernels (gemm_ukernel.h).
 *
 * Packed layout (pk_gemm_f32_pack_a/_b, and the blocks packed on the fly):
 * micro-panels of `tile` rows of A (MR) or columns of B (NR), each holding k
 * consecutive steps of `tile` values, zero past the matrix edge:
 * panel p, step k, lane i at data[(p*K + k)*tile + i]. A prepacked operand
 * has a 64-byte header (the ISA and tile it was packed for) before it.
 *
 * Blocking, per thread on its rectangle of C: NC columns, then KC steps of k
 * (B block packed unless prepacked), then MC rows (A block packed unless
 * prepacked), then NR-column micro-panels of B (held in L1 across) the MR-row
 * micro-panels of A (streamed from the L2-resident A block). Sizes measured
 * on Zen 5 (48 KiB L1d, 1 MiB L2): for AVX-512 KC = 512 beats 256 although
 * the B micro-panel (64 KiB) then lives in L2, since it halves the passes
 * reading back C (whose tile the kernels prefetch); MC keeps the A block
 * near half of L2. A skinny product (M <= SKINNY_M and at most one A panel
 * of rows: a few tokens) goes B panel by panel over all of k instead: B
 * streams once from memory in the order it is stored, the rows stay in
 * registers; one row takes the row kernel, several the main kernel on A
 * packed once (its exact-row variants). GEMM 8x4096x4096 on packed B
 * (AVX-512, one thread): 10 GB/s through the blocks, against 20 this way.
 *
 * B in place (b_in_place): a B with unit column stride against at most
 * IN_PLACE_M rows of A (each B panel feeds a dozen A panels or fewer, from
 * L1 or L2 whatever its row stride) is read where it lies by the main
 * kernel, on kernel sets whose main kernel reads partial panels in place:
 * no packing copy, which on a 1x1 convolution's input planes cost about a
 * third of the product (MobileNetV2's 1x1 layers, AVX-512: 3.28 -> 2.86 ms). */
#include "cpu/gemm.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include "cpu/gemm_ukernel.h"

enum { SKINNY_M = 8, IN_PLACE_M = 160, PACK_MAGIC = 0x4d4d4750 /* "PGMM" */, HEADER = 64, ALIGN = 64 };

typedef struct pack_header {
  uint32_t magic, isa, tile, pad;
  uint64_t lanes, k; /* rows of A / columns of B, and K */
} pack_header;

static const pk_gemm_f32_kernel kernels[PK_ISA_COUNT] = {
    [PK_ISA_SCALAR] = {PK_ISA_SCALAR, 4, 8, 256, 128, 1024, pk_f32_gemm_4x8_scalar, pk_f32_gemm_1x8_scalar, true},
#if defined(__x86_64__)
    [PK_ISA_AVX2] = {PK_ISA_AVX2, 6, 16, 512, 240, 1024, pk_f32_gemm_6x16_avx2, pk_f32_gemm_1x16_avx2, false},
    [PK_ISA_AVX512] = {PK_ISA_AVX512, 14, 32, 512, 224, 1024, pk_f32_gemm_14x32_avx512,
                       pk_f32_gemm_1x32_avx512, true},
#endif
#if defined(__aarch64__)
    [PK_ISA_NEON] = {PK_ISA_NEON, 8, 12, 256, 256, 1020, pk_f32_gemm_8x12_neon, pk_f32_gemm_1x12_neon, false},
#endif
};

const pk_gemm_f32_kernel *pk_gemm_f32_kernel_for(pk_isa isa) {
  if ((unsigned)isa < PK_ISA_COUNT && kernels[isa].main) return &kernels[isa];
  return &kernels[PK_ISA_SCALAR];
}

static size_t div_up(size_t x, size_t d) { return (x + d - 1) / d; }
static size_t min_sz(size_t x, size_t y) { return x < y ? x : y; }

/* Orders the non-temporal stores of a streamed share before whatever
 * signals its end to the threads that read C (x86 only has such stores). */
static void store_fence(void) {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}
static size_t align_up(size_t x) { return (x + ALIGN - 1) & ~(size_t)(ALIGN - 1); }

/* Packs lanes [0, n) × steps [0, kc) of x (lane r, step k at x[r*s_l + k*s_k])
 * into panels of `tile` lanes, zero-padding the last. */
static void pack_panels(const float *x, size_t s_l, size_t s_k, size_t n, size_t kc, size_t tile, float *dst) {
  for (size_t p0 = 0; p0 < n; p0 += tile, dst += kc * tile) {
    size_t w = min_sz(tile, n - p0);
    const float *src = x + p0 * s_l;
    if (s_k == 1 && s_l != 1) { /* each lane contiguous in k: a cache line of each lane at a time */
      for (size_t k0 = 0; k0 < kc; k0 += 16) {
        size_t k1 = min_sz(kc, k0 + 16);
        for (size_t i = 0; i < w; i++) {
          const float *s = src + i * s_l;
          __builtin_prefetch(s + k0 + 64);
          for (size_t k = k0; k < k1; k++) dst[k * tile + i] = s[k];
        }
      }
      for (size_t k = 0; k < kc && w < tile; k++) memset(dst + k * tile + w, 0, (tile - w) * sizeof(float));
    } else {
      for (size_t k = 0; k < kc; k++) {
        float *d = dst + k * tile;
        for (size_t i = 0; i < w; i++) d[i] = src[i * s_l + k * s_k];
        for (size_t i = w; i < tile; i++) d[i] = 0.0f;
      }
    }
  }
}

static size_t packed_bytes(size_t lanes, size_t K, size_t tile) {
  return HEADER + div_up(lanes, tile) * tile * K * sizeof(float);
}

static void pack(size_t lanes, size_t K, const float *x, size_t s_l, size_t s_k, size_t tile, void *packed) {
  pack_header h = {PACK_MAGIC, (uint32_t)pk_isa_selected(), (uint32_t)tile, 0, lanes, K};
  memcpy(packed, &h, sizeof h);
  pack_panels(x, s_l, s_k, lanes, K, tile, (float *)((char *)packed + HEADER));
}

size_t pk_gemm_f32_pack_a_size(size_t M, size_t K) {
  return packed_bytes(M, K, pk_gemm_f32_kernel_for(pk_isa_selected())->mr);
}

void pk_gemm_f32_pack_a(size_t M, size_t K, const float *a, size_t s_m, size_t s_k, void *packed) {
  pack(M, K, a, s_m, s_k, pk_gemm_f32_kernel_for(pk_isa_selected())->mr, packed);
}

size_t pk_gemm_f32_pack_b_size(size_t K, size_t N) {
  return packed_bytes(N, K, pk_gemm_f32_kernel_for(pk_isa_selected())->nr);
}

void pk_gemm_f32_pack_b(size_t K, size_t N, const float *b, size_t s_k, size_t s_n, void *packed) {
  pack(N, K, b, s_n, s_k, pk_gemm_f32_kernel_for(pk_isa_selected())->nr, packed);
}

pk_isa pk_gemm_f32_packed_isa(const void *packed) {
  pack_header h;
  memcpy(&h, packed, sizeof h);
  return pk_gemm_f32_kernel_for((pk_isa)h.isa)->isa;
}

void pk_gemm_f32_packed_scale(void *packed, size_t l0, size_t n, const double *scale) {
  pack_header h;
  memcpy(&h, packed, sizeof h);
  float *d = (float *)((char *)packed + HEADER);
  size_t T = h.tile, K = (size_t)h.k;
  for (size_t l = l0; l < l0 + n && l < h.lanes; l++) {
    float *x = d + (l / T) * K * T + l % T;
    for (size_t k = 0; k < K; k++) x[k * T] = (float)((double)x[k * T] * scale[l - l0]);
  }
}

size_t pk_gemm_f32_b_panel(pk_isa isa) { return pk_gemm_f32_kernel_for(isa)->nr; }

size_t pk_gemm_f32_pack_b_size_isa(size_t K, size_t N, pk_isa isa) {
  return packed_bytes(N, K, pk_gemm_f32_kernel_for(isa)->nr);
}

float *pk_gemm_f32_pack_b_start(void *packed, size_t K, size_t N, pk_isa isa) {
  const pk_gemm_f32_kernel *kn = pk_gemm_f32_kernel_for(isa);
  pack_header h = {PACK_MAGIC, (uint32_t)kn->isa, (uint32_t)kn->nr, 0, N, K};
  memcpy(packed, &h, sizeof h);
  return (float *)((char *)packed + HEADER);
}

float *pk_gemm_f32_packed_panels(void *packed) { return (float *)((char *)packed + HEADER); }

size_t pk_gemm_f32_a_panel(pk_isa isa) { return pk_gemm_f32_kernel_for(isa)->mr; }

size_t pk_gemm_f32_pack_a_size_isa(size_t M, size_t K, pk_isa isa) {
  return packed_bytes(M, K, pk_gemm_f32_kernel_for(isa)->mr);
}

float *pk_gemm_f32_pack_a_start(void *packed, size_t M, size_t K, pk_isa isa) {
  const pk_gemm_f32_kernel *kn = pk_gemm_f32_kernel_for(isa);
  pack_header h = {PACK_MAGIC, (uint32_t)kn->isa, (uint32_t)kn->mr, 0, M, K};
  memcpy(packed, &h, sizeof h);
  return (float *)((char *)packed + HEADER);
}

static const float *packed_data(const void *packed) { return (const float *)((const char *)packed + HEADER); }

/* The kernels a run uses: those a prepacked operand was packed for. */
static const pk_gemm_f32_kernel *run_kernel(const pk_gemm_f32_args *g) {
  const void *p = g->a.packed ? g->a.packed : g->b.packed;
  if (!p) return pk_gemm_f32_kernel_for(pk_isa_selected());
  pack_header h;
  memcpy(&h, p, sizeof h);
  return pk_gemm_f32_kernel_for((pk_isa)h.isa);
}

/* The skinny path: a few rows, within one A panel. */
static bool skinny(const pk_gemm_f32_args *g, const pk_gemm_f32_kernel *kn) {
  return g->M <= SKINNY_M && g->M <= kn->mr;
}

/* Whether the blocked path reads B in place (see the top). */
static bool b_in_place(const pk_gemm_f32_args *g, const pk_gemm_f32_kernel *kn) {
  return !g->b.packed && g->b.s_c == 1 && g->K > 0 && g->M <= IN_PLACE_M && kn->b_in_place && !skinny(g, kn);
}

bool pk_gemm_f32_b_in_place(const pk_gemm_f32_args *args) { return b_in_place(args, run_kernel(args)); }

/* Bytes of A the skinny path packs (several rows, A not prepacked). */
static size_t skinny_a_bytes(const pk_gemm_f32_args *g, const pk_gemm_f32_kernel *kn) {
  return g->M > 1 && !g->a.packed ? align_up(kn->mr * g->K * sizeof(float)) : 0;
}

/* Steps of k the small-M path packs of an unpacked B at a time (a packed B
 * is used over all of K). */
static size_t small_kb(const pk_gemm_f32_args *g, const pk_gemm_f32_kernel *kn) {
  return g->b.packed ? g->K : min_sz(g->K, 16 * kn->kc);
}

/* Bytes of one thread's workspace (a multiple of ALIGN; at least ALIGN when
 * anything is packed on the fly, so the workspace pointer is never NULL then). */
static size_t share_bytes(const pk_gemm_f32_args *g, const pk_gemm_f32_kernel *kn) {
  if (skinny(g, kn)) {
    size_t n = skinny_a_bytes(g, kn) + (g->b.packed ? 0 : align_up(small_kb(g, kn) * kn->nr * sizeof(float)));
    return n ? n + ALIGN : 0;
  }
  const bool pack_b = !g->b.packed && !b_in_place(g, kn);
  if (g->a.packed && !pack_b) return 0;
  size_t kc = min_sz(kn->kc, g->K), n = ALIGN;
  if (!g->a.packed) n += align_up(min_sz(kn->mc, div_up(g->M, kn->mr) * kn->mr) * kc * sizeof(float));
  if (pack_b) n += align_up(min_sz(kn->nc, div_up(g->N, kn->nr) * kn->nr) * kc * sizeof(float));
  return n;
}

size_t pk_gemm_f32_workspace_b_packed(size_t M, size_t N, size_t K, bool a_packed, pk_isa isa,
                                      size_t nthreads) {
  pk_gemm_f32_args g;
  memset(&g, 0, sizeof g);
  g.M = M;
  g.N = N;
  g.K = K;
  g.b.packed = &g; /* share_bytes only asks whether an operand is packed */
  g.a.packed = a_packed ? &g : NULL;
  if (!M || !N) return 0;
  size_t per = share_bytes(&g, pk_gemm_f32_kernel_for(isa));
  return per ? ALIGN + per * (nthreads ? nthreads : 1) : 0;
}

size_t pk_gemm_f32_workspace(const pk_gemm_f32_args *g, size_t nthreads) {
  if (!g->M || !g->N) return 0;
  size_t per = share_bytes(g, run_kernel(g));
  return per ? ALIGN + per * (nthreads ? nthreads : 1) : 0;
}

static int has_clamp(const pk_gemm_f32_args *g) { return !(g->min == -INFINITY && g->max == INFINITY); }

/* Skinny: columns [n0, n1) (multiples of NR but the end), every row. */
static void run_small(const pk_gemm_f32_args *g, const pk_gemm_f32_kernel *kn, size_t n0, size_t n1, float *ws) {
  const size_t NR = kn->nr, MR = kn->mr, K = g->K, KB = small_kb(g, kn);
  const bool rows = g->M > 1;
  const float *pa = g->a.packed ? packed_data(g->a.packed) : ws;
  float *wb = ws ? ws + skinny_a_bytes(g, kn) / sizeof(float) : NULL; /* no workspace: nothing to pack */
  if (rows && !g->a.packed && K) pack_panels(g->a.ptr, g->a.s_r, g->a.s_c, g->M, K, MR, ws);
  pk_gemm_f32_tile t = {0};
  t.min = g->min;
  t.max = g->max;
  t.ldc = g->ldc;
  t.b_stride = NR;
  for (size_t j = n0; j < n1; j += NR) {
    t.nr = min_sz(NR, n1 - j);
    t.bias_n = g->bias_n ? g->bias_n + j : NULL;
    size_t pc = 0;
    do { /* at least once: K == 0 still writes bias (and clamp) */
      t.kc = min_sz(KB, K - pc);
      t.load_c = pc > 0;
      t.clamp = pc + t.kc >= K && has_clamp(g);
      if (g->b.packed) {
        t.b = packed_data(g->b.packed) + (j / NR) * K * NR + pc * NR;
      } else {
        if (t.kc) /* K == 0: nothing to pack, and the operand may be NULL */
          pack_panels(g->b.ptr + j * g->b.s_c + pc * g->b.s_r, g->b.s_c, g->b.s_r, t.nr, t.kc, NR, wb);
        t.b = wb;
      }
      t.c = g->c + j;
      t.bias_m = g->bias_m;
      if (rows) {
        t.mr = g->M;
        t.a = t.kc ? pa + pc * MR : pa; /* K == 0: nothing packed (maybe no workspace), nothing read */
        kn->main(&t);
      } else {
        t.mr = 1;
        if (g->a.packed) {
          t.a = pa + pc * MR;
          t.a_stride = MR;
        } else {
          t.a = t.kc ? g->a.ptr + pc * g->a.s_c : g->a.ptr; /* read only for K > 0 */
          t.a_stride = g->a.s_c;
        }
        kn->row(&t);
      }
      pc += t.kc;
    } while (pc < K);
  }
}

/* Rows [m0, m1) × columns [n0, n1) of C, both starting on a tile edge. */
static void run_block(const pk_gemm_f32_args *g, const pk_gemm_f32_kernel *kn, size_t m0, size_t m1, size_t n0,
                      size_t n1, float *ws) {
  const size_t MR = kn->mr, NR = kn->nr, K = g->K;
  const size_t KC = kn->kc, MC = kn->mc, NC = kn->nc;
  const size_t kc_max = min_sz(KC, K);
  const bool in_place = b_in_place(g, kn);
  float *wa = ws, *wb = ws;
  if (!g->a.packed) wb = ws + align_up(min_sz(MC, div_up(g->M, MR) * MR) * kc_max * sizeof(float)) / sizeof(float);
  pk_gemm_f32_tile t = {0};
  t.ldc = g->ldc;
  t.min = g->min;
  t.max = g->max;
  for (size_t jc = n0; jc < n1; jc += NC) {
    const size_t nc = min_sz(NC, n1 - jc);
    size_t pc = 0;
    do { /* at least once: K == 0 still writes bias (and clamp) */
      const size_t kc = min_sz(KC, K - pc);
      const float *bblk;
      size_t bstride, boff;
      t.b_stride = NR;
      t.b_in_place = in_place;
      if (g->b.packed) {
        bblk = packed_data(g->b.packed) + (jc / NR) * K * NR;
        bstride = K * NR;
        boff = pc * NR;
      } else if (in_place) { /* panel p starts at column jc + p*NR of row pc */
        bblk = g->b.ptr + jc;
        bstride = NR;
        boff = pc * g->b.s_r;
        t.b_stride = g->b.s_r;
      } else {
        if (kc) /* K == 0: nothing to pack, and the operand may be NULL */
          pack_panels(g->b.ptr + jc * g->b.s_c + pc * g->b.s_r, g->b.s_c, g->b.s_r, nc, kc, NR, wb);
        bblk = wb;
        bstride = kc * NR;
        boff = 0;
      }
      t.kc = kc;
      t.load_c = pc > 0;
      t.clamp = pc + kc >= K && has_clamp(g);
      t.stream = pc + kc >= K && g->stream_c;
      for (size_t ic = m0; ic < m1; ic += MC) {
        const size_t mc = min_sz(MC, m1 - ic);
        const float *ablk;
        size_t astride, aoff;
        if (g->a.packed) {
          ablk = packed_data(g->a.packed) + (ic / MR) * K * MR;
          astride = K * MR;
          aoff = pc * MR;
        } else {
          if (kc) pack_panels(g->a.ptr + ic * g->a.s_r + pc * g->a.s_c, g->a.s_r, g->a.s_c, mc, kc, MR, wa);
          ablk = wa;
          astride = kc * MR;
          aoff = 0;
        }
        for (size_t jr = 0; jr < nc; jr += NR) {
          t.nr = min_sz(NR, nc - jr);
          t.b = bblk + (jr / NR) * bstride + boff;
          t.bias_n = g->bias_n ? g->bias_n + jc + jr : NULL;
          for (size_t ir = 0; ir < mc; ir += MR) {
            t.mr = min_sz(MR, mc - ir);
            t.a = ablk + (ir / MR) * astride + aoff;
            t.c = g->c + (ic + ir) * g->ldc + jc + jr;
            t.bias_m = g->bias_m ? g->bias_m + ic + ir : NULL;
            kn->main(&t);
          }
        }
      }
      pc += kc;
    } while (pc < K);
  }
}

/* [begin, end) of `parts` equal shares of `units` tiles, in elements of `tile`. */
static void share_range(size_t units, size_t parts, size_t t, size_t tile, size_t total, size_t *b, size_t *e) {
  *b = min_sz(total, (units * t / parts) * tile);
  *e = min_sz(total, (units * (t + 1) / parts) * tile);
}

/* The part of C share t of an nthreads-way split computes: rows [m0, m1) x
 * columns [n0, n1) (empty when b >= e). */
static void share_part(const pk_gemm_f32_args *g, const pk_gemm_f32_kernel *kn, size_t nthreads, size_t t,
                       size_t r[4]) {
  const size_t pm = div_up(g->M, kn->mr), pn = div_up(g->N, kn->nr);
  r[0] = 0, r[1] = g->M, r[2] = 0, r[3] = g->N;
  if (!skinny(g, kn) && (pm >= 4 * nthreads || pm >= pn)) /* enough rows: split M */
    share_range(pm, nthreads, t, kn->mr, g->M, &r[0], &r[1]);
  else
    share_range(pn, nthreads, t, kn->nr, g->N, &r[2], &r[3]);
}

/* Share t of an nthreads-way split, in workspace slot `slot`. */
static void run_share_in(const pk_gemm_f32_args *g, void *workspace, size_t nthreads, size_t t, size_t slot) {
  const pk_gemm_f32_kernel *kn = run_kernel(g);
  size_t per = share_bytes(g, kn);
  float *ws = per ? (float *)(align_up((size_t)(uintptr_t)workspace) + slot * per) : NULL;
  size_t r[4];
  share_part(g, kn, nthreads, t, r);
  if (r[0] >= r[1] || r[2] >= r[3]) return;
  if (skinny(g, kn)) {
    run_small(g, kn, r[2], r[3], ws);
    return;
  }
  run_block(g, kn, r[0], r[1], r[2], r[3], ws);
  if (g->stream_c) store_fence();
}

void pk_gemm_f32_share_part(const pk_gemm_f32_args *g, size_t nthreads, size_t t, size_t *m0, size_t *m1,
                            size_t *n0, size_t *n1) {
  size_t r[4] = {0, 0, 0, 0};
  if (t < nthreads) share_part(g, run_kernel(g), nthreads, t, r);
  *m0 = r[0], *m1 = r[1], *n0 = r[2], *n1 = r[3];
}

void pk_gemm_f32_run_share(const pk_gemm_f32_args *g, void *workspace, size_t nthreads, size_t t) {
  if (g->M && g->N && t < nthreads) run_share_in(g, workspace, nthreads, t, t);
}

typedef struct run_task {
  const pk_gemm_f32_args *g;
  void *ws;
  size_t nthreads;
} run_task;

/* Chunk [begin, end) of the shares runs serially in workspace slot `begin`,
 * which no other chunk running at the same time has (there is one slot a
 * share, or none at all where the shares outnumber the threads). */
static void run_chunk(void *arg, size_t begin, size_t end) {
  const run_task *rt = arg;
  for (size_t t = begin; t < end; t++) run_share_in(rt->g, rt->ws, rt->nthreads, t, begin);
}

/* A product that packs nothing on the fly (no workspace slot to keep
 * apart: both operands packed, or B read in place against a packed A) runs
 * in GEMM_SHARES_PER_THREAD shares a thread, claimed one at a time, so a
 * core slowed by another tenant takes fewer of them than one static share
 * a thread would give it; each share still covers whole tiles. */
#define GEMM_SHARES_PER_THREAD 4u

void pk_gemm_f32_run(const pk_gemm_f32_args *g, void *workspace, ptera_kernel_ctx *ctx) {
  if (!g->M || !g->N) return;
  size_t nthreads = ctx ? ptera_kernel_thread_count(ctx) : 1;
  if (nthreads <= 1) {
    run_share_in(g, workspace, 1, 0, 0);
    return;
  }
  if (share_bytes(g, run_kernel(g)) == 0) nthreads *= GEMM_SHARES_PER_THREAD;
  run_task rt = {g, workspace, nthreads};
  ptera_kernel_parallel_for(ctx, nthreads, 1, run_chunk, &rt);
}

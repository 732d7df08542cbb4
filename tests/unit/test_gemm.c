/* The f32 GEMM layer (kernels/cpu/gemm.h) against a double-accumulating naive
 * reference, for every ISA this CPU has (forced in turn): M, N, K from 1 past
 * every tile edge and the KC/MC/NC block edges (and K = 0), A and B strided,
 * transposed or prepacked, bias per row and/or column, clamp, ldc > N (the
 * columns past N must stay untouched), 1-, 2-, 3-, 8- and 12-way share splits,
 * runs on pools of 2 and 3 threads (a product that packs nothing on the fly
 * runs in several shares a thread there), and
 * the small-M path's k blocks (16·KC) for an unpacked B, and every row count
 * of the skinny path (M = 1..8 within one A panel: row kernel or exact-row main),
 * a B read in place whose row stride is the panel width, and C streamed
 * (stream_c) at random and on 64-byte-aligned rows, where the AVX kernels'
 * non-temporal stores take the full vectors.
 * PTERA_GEMM_TEST_CASES sets the number of random cases per ISA (default 60). */
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/gemm.h"
#include "cpu/gemm_ukernel.h"
#include "cpu/isa.h"
#include "ptera/threadpool.h"
#include "runtime/kernel_ctx.h"

static ptera_threadpool *pools[2]; /* 2 and 3 threads */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next_u32(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}
static size_t pick(size_t lo, size_t hi) { return lo + next_u32() % (hi - lo + 1); } /* [lo, hi] */
static float uniform(void) { return (float)(next_u32() % 2001) / 1000.0f - 1.0f; }

enum { PLAIN, TRANSPOSED, PACKED, MODES };
static const char *const mode_names[MODES] = {"plain", "transposed", "packed"};

typedef struct gemm_case {
  size_t M, N, K;
  int a_mode, b_mode, bias_m, bias_n, clamp, stream, align_c; /* align_c: C's rows 64-byte aligned */
  size_t ldc_pad, threads; /* threads: shares run one by one (pk_gemm_f32_run_share) */
  int pool;                /* 1, 2: pk_gemm_f32_run on pools[pool - 1] instead */
} gemm_case;

static void *alloc64(size_t bytes) { return aligned_alloc(64, (bytes + 63) / 64 * 64 + 64); }

/* x: rows × cols stored with a padded leading dimension, row-major (PLAIN) or
 * column-major (TRANSPOSED); element (r, c) at x[r*s_r + c*s_c]. */
static float *make_matrix(size_t rows, size_t cols, int transposed, size_t *s_r, size_t *s_c) {
  size_t ld = (transposed ? rows : cols) + pick(0, 3);
  size_t n = (transposed ? cols : rows) * ld;
  float *x = malloc((n ? n : 1) * sizeof(float));
  for (size_t i = 0; i < n; i++) x[i] = uniform();
  *s_r = transposed ? 1 : ld;
  *s_c = transposed ? ld : 1;
  return x;
}

static int run_case(const gemm_case *gc, pk_isa isa) {
  const size_t M = gc->M, N = gc->N, K = gc->K;
  size_t as_r, as_c, bs_r, bs_c;
  float *a = make_matrix(M, K, gc->a_mode == TRANSPOSED, &as_r, &as_c);
  float *b = make_matrix(K, N, gc->b_mode == TRANSPOSED, &bs_r, &bs_c);
  float *bm = malloc((M + 1) * sizeof(float)), *bn = malloc((N + 1) * sizeof(float));
  for (size_t i = 0; i < M; i++) bm[i] = uniform();
  for (size_t j = 0; j < N; j++) bn[j] = uniform();
  const size_t ldc = N + gc->ldc_pad;
  float *c = gc->align_c ? alloc64(M * ldc * sizeof(float)) : malloc(M * ldc * sizeof(float));
  for (size_t i = 0; i < M * ldc; i++) c[i] = -7.0f; /* sentinel */
  void *pa = NULL, *pb = NULL;
  pk_gemm_f32_args g = {M, N, K, {a, as_r, as_c, NULL}, {b, bs_r, bs_c, NULL}, NULL, NULL, c, ldc,
                        -INFINITY, INFINITY, gc->stream != 0};
  if (gc->a_mode == PACKED) {
    pa = alloc64(pk_gemm_f32_pack_a_size(M, K));
    pk_gemm_f32_pack_a(M, K, a, as_r, as_c, pa);
    g.a.packed = pa;
    g.a.ptr = NULL;
  }
  if (gc->b_mode == PACKED) {
    pb = alloc64(pk_gemm_f32_pack_b_size(K, N));
    pk_gemm_f32_pack_b(K, N, b, bs_r, bs_c, pb);
    g.b.packed = pb;
    g.b.ptr = NULL;
  }
  if (gc->bias_m) g.bias_m = bm;
  if (gc->bias_n) g.bias_n = bn;
  if (gc->clamp) {
    g.min = -0.25f * sqrtf((float)K + 1.0f);
    g.max = 0.5f * sqrtf((float)K + 1.0f);
  }
  /* Workspace at an odd address, full of garbage: nothing may rely on it
   * (NULL when none is asked for). */
  ptera_threadpool *pool = gc->pool ? pools[gc->pool - 1] : NULL;
  size_t ws_bytes = pk_gemm_f32_workspace(&g, pool ? ptera_threadpool_size(pool) : gc->threads);
  unsigned char *ws = malloc(ws_bytes + 4);
  memset(ws, 0xff, ws_bytes + 4);
  void *w = ws_bytes ? ws + 4 : NULL;
  if (pool) {
    ptera_kernel_ctx ctx;
    pt_err err;
    memset(&err, 0, sizeof err);
    pr_kernel_ctx_init(&ctx, "aten::mm.out", &err, NULL, 0);
    ctx.pool = pool;
    pk_gemm_f32_run(&g, w, &ctx);
  } else if (gc->threads == 1 && (M + N) % 2) {
    pk_gemm_f32_run(&g, w, NULL);
  } else {
    for (size_t t = gc->threads; t-- > 0;) pk_gemm_f32_run_share(&g, w, gc->threads, t);
  }
  /* The shares' parts (pk_gemm_f32_share_part) cover C once, and a share
   * writes inside its part only (the sentinel outside is untouched). */
  unsigned char *cover = calloc(M * N + 1, 1);
  for (size_t t = 0; t <= gc->threads; t++) {
    size_t m0, m1, n0, n1;
    pk_gemm_f32_share_part(&g, gc->threads, t, &m0, &m1, &n0, &n1);
    if (t == gc->threads) { /* past the last share: nothing */
      CHECK(m0 >= m1 || n0 >= n1);
      continue;
    }
    CHECK(m1 <= M && n1 <= N);
    for (size_t i = m0; i < m1; i++)
      for (size_t j = n0; j < n1; j++) cover[i * N + j]++;
  }
  bool once = true;
  for (size_t i = 0; i < M * N; i++) once = once && cover[i] == 1;
  CHECK(once);
  free(cover);

  int bad = 0;
  for (size_t i = 0; i < M && !bad; i++) {
    for (size_t j = 0; j < ldc && !bad; j++) {
      float got = c[i * ldc + j];
      if (j >= N) {
        bad = got != -7.0f;
        continue;
      }
      double ref = 0, mag = 0;
      for (size_t k = 0; k < K; k++) {
        double p = (double)a[i * as_r + k * as_c] * (double)b[k * bs_r + j * bs_c];
        ref += p;
        mag += fabs(p);
      }
      if (gc->bias_m) ref += bm[i], mag += fabs(bm[i]);
      if (gc->bias_n) ref += bn[j], mag += fabs(bn[j]);
      if (gc->clamp) ref = ref < g.min ? g.min : ref > g.max ? g.max : ref;
      double tol = (double)(K + 2) * FLT_EPSILON * mag + 1e-30;
      bad = !(fabs((double)got - ref) <= tol);
      if (bad)
        fprintf(stderr, "  c[%zu,%zu] = %.9g, expected %.9g (tol %.3g)\n", i, j, (double)got, ref, tol);
    }
  }
  if (bad)
    fprintf(stderr,
            "gemm %s: M=%zu N=%zu K=%zu a=%s b=%s bias_m=%d bias_n=%d clamp=%d stream=%d ldc=%zu threads=%zu "
            "pool=%d\n",
            pk_isa_name(isa), M, N, K, mode_names[gc->a_mode], mode_names[gc->b_mode], gc->bias_m, gc->bias_n,
            gc->clamp, gc->stream, ldc, gc->threads, gc->pool);
  free(a), free(b), free(bm), free(bn), free(c), free(pa), free(pb), free(ws);
  return !bad;
}

static gemm_case random_flags(size_t M, size_t N, size_t K, size_t i) {
  static const size_t share_counts[] = {1, 2, 3, 8, 12};
  gemm_case gc = {M, N, K, (int)(i % MODES), (int)(i / MODES % MODES), 0, 0, 0, 0, 0, 0, 1, 0};
  uint32_t r = next_u32();
  gc.bias_m = r & 1;
  gc.bias_n = (r >> 1) & 1;
  gc.clamp = ((r >> 2) & 3) == 0;
  gc.ldc_pad = (r >> 4) & 1 ? pick(1, 5) : 0;
  gc.stream = (r >> 5) & 1;
  gc.threads = share_counts[pick(0, 4)];
  gc.pool = ((r >> 6) & 3) == 0 ? (int)pick(1, 2) : 0;
  return gc;
}

/* B a window of columns [off, off + N) of a K x ld row-major matrix whose
 * storage ends where the window's last row does: read in place with row
 * stride ld (ld = the ISA's panel width, as a packed panel's), a kernel
 * that read past column N there would overflow it (ASan). */
static int window_case(size_t M, size_t N, size_t K, size_t ld, size_t off, pk_isa isa) {
  float *a = malloc(M * K * sizeof(float)), *store = malloc(((K - 1) * ld + off + N) * sizeof(float));
  float *b = store + off, *c = malloc(M * N * sizeof(float));
  for (size_t i = 0; i < M * K; i++) a[i] = uniform();
  for (size_t i = 0; i < (K - 1) * ld + off + N; i++) store[i] = uniform();
  pk_gemm_f32_args g = {M, N, K, {a, K, 1, NULL}, {b, ld, 1, NULL}, NULL, NULL, c, N, -INFINITY, INFINITY, false};
  size_t ws_bytes = pk_gemm_f32_workspace(&g, 1);
  void *ws = ws_bytes ? malloc(ws_bytes) : NULL;
  pk_gemm_f32_run(&g, ws, NULL);
  int bad = 0;
  for (size_t i = 0; i < M && !bad; i++)
    for (size_t j = 0; j < N && !bad; j++) {
      double ref = 0, mag = 0;
      for (size_t k = 0; k < K; k++) {
        double p = (double)a[i * K + k] * (double)b[k * ld + j];
        ref += p;
        mag += fabs(p);
      }
      bad = !(fabs((double)c[i * N + j] - ref) <= (double)(K + 2) * FLT_EPSILON * mag + 1e-30);
    }
  if (bad) fprintf(stderr, "gemm %s: B window M=%zu N=%zu K=%zu ld=%zu off=%zu\n", pk_isa_name(isa), M, N, K, ld, off);
  free(a), free(store), free(c), free(ws);
  return !bad;
}

int main(void) {
  CHECK(ptera_threadpool_create(2, NULL, &pools[0]) == PTERA_OK);
  CHECK(ptera_threadpool_create(3, NULL, &pools[1]) == PTERA_OK);
  const char *env = getenv("PTERA_GEMM_TEST_CASES");
  size_t n_random = env ? (size_t)strtoul(env, NULL, 10) : 60;
#if defined(__aarch64__)
  CHECK(pk_isa_available(PK_ISA_NEON)); /* scripts/test_neon.sh runs this under qemu */
#elif defined(__x86_64__)
  printf("gemm: avx2 %s, avx512 %s on this CPU\n", pk_isa_available(PK_ISA_AVX2) ? "yes" : "no",
         pk_isa_available(PK_ISA_AVX512) ? "yes" : "no");
#endif
  for (int isa_i = 0; isa_i < PK_ISA_COUNT; isa_i++) {
    pk_isa isa = (pk_isa)isa_i;
    if (!pk_isa_available(isa)) continue;
    CHECK(pk_isa_force(isa) == isa);
    const pk_gemm_f32_kernel *kn = pk_gemm_f32_kernel_for(isa);
    CHECK(kn->isa == isa);
    const size_t MR = kn->mr, NR = kn->nr, KC = kn->kc, MC = kn->mc, NC = kn->nc;
    size_t cases = 0, passed = 0;
    /* Every tile edge, in every operand mode. */
    const size_t ms[] = {1, 2, 3, 4, 5, 6, 7, 8, MR - 1, MR, MR + 1, 2 * MR + 1}; /* 2..8: the skinny path */
    const size_t ns[] = {1, NR - 1, NR, NR + 1, 2 * NR + 3};
    const size_t ks[] = {0, 1, 3, 17};
    size_t i = 0;
    for (size_t x = 0; x < sizeof ms / sizeof ms[0]; x++)
      for (size_t y = 0; y < sizeof ns / sizeof ns[0]; y++, i++) {
        gemm_case gc = random_flags(ms[x], ns[y], ks[i % 4], i);
        cases++, passed += run_case(&gc, isa);
      }
    /* The block edges: KC (and 2·KC) in k, MC in rows, NC in columns. */
    const size_t big[][3] = {{MR + 3, NR + 5, KC},      {5, 2 * NR - 1, KC + 1},  {2, NR + 1, 2 * KC + 1},
                             {MC + 1, NR + 1, KC + 1},  {MC - 1, 3, 33},          {1, NC + 5, 9},
                             {3, NC + NR + 1, 5},       {MR + 1, NC + 1, 3},      {2 * MC + MR, 2, 2},
                             {1, NR + 3, 16 * KC + 5},  {2, 3, 32 * KC + 1}};
    for (size_t x = 0; x < sizeof big / sizeof big[0]; x++)
      for (int m = 0; m < MODES; m++, i++) {
        gemm_case gc = random_flags(big[x][0], big[x][1], big[x][2], (size_t)m * (MODES + 1) + x);
        cases++, passed += run_case(&gc, isa);
      }
    for (size_t r = 0; r < n_random; r++, i++) {
      gemm_case gc = random_flags(pick(1, 3 * MR + 2), pick(1, 3 * NR + 2), pick(0, KC + 40), i);
      cases++, passed += run_case(&gc, isa);
    }
    /* Streamed C on aligned rows (ldc a multiple of 16): full vectors go
     * around the caches, partial ones and later k blocks' loads of C not. */
    const size_t streamed[][3] = {{MR + 1, 2 * NR, 7}, {2 * MR + 3, 3 * NR + 16, KC + 1}, {MC + 1, 4 * NR + 5, 3},
                                  {9, NR + 16, 2 * KC + 3}};
    for (size_t x = 0; x < sizeof streamed / sizeof streamed[0]; x++)
      for (int m = 0; m < MODES; m++, i++) {
        gemm_case gc = random_flags(streamed[x][0], streamed[x][1], streamed[x][2], (size_t)m * (MODES + 1) + x);
        gc.stream = gc.align_c = 1;
        gc.ldc_pad = streamed[x][1] % 16 ? 16 - streamed[x][1] % 16 : 16 * (x % 2);
        cases++, passed += run_case(&gc, isa);
      }
    /* B in place with a row stride equal to the panel width and a partial
     * last panel at the end of its storage. */
    const size_t windows[][3] = {{MR + 1, NR - 5, 7}, {9, NR / 2 + 1, 3}, {2 * MR, 1, 19}};
    for (size_t x = 0; x < sizeof windows / sizeof windows[0]; x++)
      cases++, passed += window_case(windows[x][0], windows[x][1], windows[x][2], NR, NR - windows[x][1], isa);
    printf("gemm %s (%zux%zu, KC %zu, MC %zu, NC %zu): %zu/%zu cases\n", pk_isa_name(isa), MR, NR, KC, MC, NC,
           passed, cases);
    CHECK(passed == cases);
  }
  pk_isa_force(PK_ISA_COUNT);
  ptera_threadpool_destroy(pools[0]);
  ptera_threadpool_destroy(pools[1]);
  return check_summary("gemm");
}

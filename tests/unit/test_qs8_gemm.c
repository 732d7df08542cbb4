/* The qs8 GEMM micro-kernels (kernels/cpu/ukernels/gemm_qs8/qs8.h): every
 * variant this CPU can run, the scalar twin included, against the int64 sum
 * of products computed here from the unpacked filter; rows 1..4, channel
 * counts below the 16-wide tile, inputs not a multiple of 4 (zero-padded
 * panel), random bytes and the extremes (-128 everywhere at the largest kc:
 * the bound the dot-product instructions' +128 offset must stay within).
 * The panel packing's filter sums are checked too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/isa.h"
#include "cpu/ukernels/gemm_qs8/qs8.h"

typedef struct variant {
  const char *name;
  pk_qs8_gemm_fn fn;
  bool ok;
} variant;

typedef struct filt {
  const int8_t *w; /* [16][ld] */
  size_t ld;
} filt;

static int8_t get(const void *ctx, size_t j, size_t k) {
  const filt *f = ctx;
  return f->w[j * f->ld + k];
}

static uint32_t rng = 12345u;
static int8_t rnd8(void) {
  rng = rng * 1664525u + 1013904223u;
  return (int8_t)(rng >> 24);
}

/* One case: mr rows of kn inputs (a rows of lda = kc bytes, zero past kn),
 * nc channels; fill 0 random, 1 all -128, 2 a = 127 and w = -128. */
static void run_case(const variant *vs, size_t nv, size_t mr, size_t nc, size_t kn, int fill) {
  size_t kc = (kn + 3) & ~(size_t)3;
  int8_t *a = calloc(PK_QS8_MR * kc + 4, 1), *w = calloc(PK_QS8_NR * kc + 1, 1);
  void *panel = aligned_alloc(64, (pk_qs8_panel_bytes(kc) + 63) & ~(size_t)63);
  CHECK(a && w && panel);
  if (!a || !w || !panel) return;
  for (size_t m = 0; m < mr; m++)
    for (size_t k = 0; k < kn; k++) a[m * kc + k] = fill == 0 ? rnd8() : (fill == 1 ? -128 : 127);
  for (size_t j = 0; j < nc; j++)
    for (size_t k = 0; k < kn; k++) w[j * kc + k] = fill == 0 ? rnd8() : -128;
  filt f = {w, kc};
  pk_qs8_pack_panel(nc, kn, kc, get, &f, panel);
  int32_t ks[PK_QS8_NR];
  memcpy(ks, (const int8_t *)panel + kc * PK_QS8_NR, sizeof ks);
  for (size_t j = 0; j < PK_QS8_NR; j++) {
    int64_t s = 0;
    for (size_t k = 0; k < kn && j < nc; k++) s += w[j * kc + k];
    CHECK(ks[j] == s);
  }
  for (size_t v = 0; v < nv; v++) {
    if (!vs[v].ok) continue;
    int32_t c[PK_QS8_MR][PK_QS8_NR + 3];
    memset(c, 0x5a, sizeof c);
    vs[v].fn(mr, kc, a, kc, panel, &c[0][0], PK_QS8_NR + 3);
    int bad = 0;
    for (size_t m = 0; m < PK_QS8_MR; m++)
      for (size_t j = 0; j < PK_QS8_NR + 3; j++) {
        int64_t want = 0x5a5a5a5a; /* untouched past mr rows and 16 channels */
        if (m < mr && j < PK_QS8_NR) {
          want = 0;
          for (size_t k = 0; k < kn && j < nc; k++) want += (int64_t)a[m * kc + k] * w[j * kc + k];
        }
        bad += c[m][j] != want;
      }
    if (bad) printf("  %s: mr %zu nc %zu kn %zu fill %d: %d wrong\n", vs[v].name, mr, nc, kn, fill, bad);
    CHECK(bad == 0);
  }
  free(a);
  free(w);
  free(panel);
}

int main(void) {
  variant vs[] = {
      {"scalar", pk_qs8_gemm_4x16c4_scalar, true},
#if defined(__x86_64__)
      {"avx2", pk_qs8_gemm_4x16c4_avx2, pk_isa_available(PK_ISA_AVX2)},
      {"avxvnni", pk_qs8_gemm_4x16c4_avxvnni, pk_isa_ext_available(PK_EXT_AVXVNNI)},
      {"avx512vnni", pk_qs8_gemm_4x16c4_avx512vnni, pk_isa_ext_available(PK_EXT_AVX512VNNI)},
#endif
#if defined(__aarch64__)
      {"neon", pk_qs8_gemm_4x16c4_neon, pk_isa_available(PK_ISA_NEON)},
      {"neondot", pk_qs8_gemm_4x16c4_neondot, pk_isa_ext_available(PK_EXT_DOTPROD)},
#endif
  };
  size_t nv = sizeof vs / sizeof vs[0];
  for (size_t v = 0; v < nv; v++) printf("qs8 gemm %s: %s\n", vs[v].name, vs[v].ok ? "tested" : "not on this CPU");
  static const size_t kns[] = {1, 4, 7, 8, 12, 33, 64, 260, 1001};
  for (size_t mr = 1; mr <= PK_QS8_MR; mr++)
    for (size_t i = 0; i < sizeof kns / sizeof kns[0]; i++)
      for (size_t nc = 1; nc <= PK_QS8_NR; nc += 5) run_case(vs, nv, mr, nc, kns[i], 0);
  run_case(vs, nv, 4, 16, 4096, 0);
  run_case(vs, nv, 4, 16, PK_QS8_GEMM_MAX_KC, 1);
  run_case(vs, nv, 3, 16, PK_QS8_GEMM_MAX_KC, 2);
  return check_summary("qs8_gemm");
}

/* The f32 GEMM micro-kernel interface (internal to the GEMM layer and its
 * tests). A micro-kernel computes one mr×nr tile of C (mr <= MR, nr <= NR of
 * its file's tile) over kc steps of k:
 *   main kernels: a is a packed A micro-panel, a[k*MR + i] (rows past mr are
 *                 zero), a_stride unused;
 *   row kernels (MR = 1): a[k*a_stride] is the one row of A;
 *   both:         b is a packed B micro-panel, b[k*NR + j] (columns past nr
 *                 are zero), b_stride NR; main kernels also take B in place
 *                 (tile b_in_place), b[k*b_stride + j] with any b_stride,
 *                 reading no column past nr (kernel sets with b_in_place).
 * The epilogue: the tile is acc + C when load_c (a later block of k), else
 * acc + bias_m[i] + bias_n[j] (either NULL = none); then, when clamp,
 * clamped to [min, max] (NaN passes through). Only the mr×nr part of C is
 * read or written. stream (C is written once and read back only after far
 * more data has passed through the caches): a kernel may store whole
 * vectors of C with non-temporal stores, which skip reading the lines in
 * first; the caller fences (pk_gemm_f32 does, at the end of each share). */
#ifndef PK_CPU_GEMM_UKERNEL_H
#define PK_CPU_GEMM_UKERNEL_H

#include <stddef.h>

#include "core/core.h"
#include "cpu/isa.h"

typedef struct pk_gemm_f32_tile {
  size_t mr, nr, kc;
  const float *a;
  size_t a_stride;
  const float *b;
  size_t b_stride; /* floats from one step of k to the next in b (main kernels) */
  float *c;
  size_t ldc;
  const float *bias_m, *bias_n;
  int load_c, clamp, stream;
  int b_in_place; /* b is B itself, not a packed panel: nothing past nr may be read */
  float min, max;
} pk_gemm_f32_tile;

typedef void (*pk_gemm_f32_ukernel)(const pk_gemm_f32_tile *t);

/* One ISA's micro-kernels and the cache blocking chosen for them. */
typedef struct pk_gemm_f32_kernel {
  pk_isa isa;
  size_t mr, nr;          /* the main kernel's tile; the row kernel is 1×nr */
  size_t kc, mc, nc;      /* k block (B micro-panel in L1), A block rows (L2), B block columns */
  pk_gemm_f32_ukernel main, row;
  bool b_in_place; /* main reads partial panels of B in place (masked loads) */
} pk_gemm_f32_kernel;

/* The kernels for isa (the scalar ones for a variant this build lacks). */
PT_FUNC const pk_gemm_f32_kernel *pk_gemm_f32_kernel_for(pk_isa isa);

/* The epilogue on an accumulator tile acc[i*ld + j] (the scalar kernels and
 * the partial tiles of NEON). */
static inline void pk_gemm_f32_tile_store(const pk_gemm_f32_tile *t, const float *acc, size_t ld) {
  for (size_t i = 0; i < t->mr; i++) {
    float *c = t->c + i * t->ldc;
    float bm = t->bias_m ? t->bias_m[i] : 0.0f;
    for (size_t j = 0; j < t->nr; j++) {
      float v = acc[i * ld + j];
      if (t->load_c)
        v += c[j];
      else
        v += bm + (t->bias_n ? t->bias_n[j] : 0.0f);
      if (t->clamp) {
        v = v < t->min ? t->min : v;
        v = v > t->max ? t->max : v;
      }
      c[j] = v;
    }
  }
}

PT_FUNC void pk_f32_gemm_4x8_scalar(const pk_gemm_f32_tile *t);
PT_FUNC void pk_f32_gemm_1x8_scalar(const pk_gemm_f32_tile *t);
#if defined(__x86_64__)
PT_FUNC void pk_f32_gemm_6x16_avx2(const pk_gemm_f32_tile *t);
PT_FUNC void pk_f32_gemm_1x16_avx2(const pk_gemm_f32_tile *t);
PT_FUNC void pk_f32_gemm_14x32_avx512(const pk_gemm_f32_tile *t);
PT_FUNC void pk_f32_gemm_1x32_avx512(const pk_gemm_f32_tile *t);
#endif
#if defined(__aarch64__)
PT_FUNC void pk_f32_gemm_8x12_neon(const pk_gemm_f32_tile *t);
PT_FUNC void pk_f32_gemm_1x12_neon(const pk_gemm_f32_tile *t);
#endif

#endif

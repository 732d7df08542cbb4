/* f32 depthwise 2-d convolution micro-kernels, NCHW: one channel plane each.
 *
 * out[oy][ox] = clamp(bias + sum_{ky,kx} w[ky*K+kx] * in[oy*S - pad_t + ky][ox*S - pad_l + kx],
 *                     min, max)
 * with taps outside the h x w input reading zero (padding). in is h x w and
 * out oh x ow, both rows contiguous; any padding and output extent is fine.
 * Each input row is staged once into a ring of zero-padded rows in scratch,
 * so every output column, edges included, runs through the same vector loop
 * on whole vectors (only the last store of a row is partial). (The AVX-512
 * body skips the staging for output rows of one vector whose input rows fit
 * one vector per stride: masked loads straight from the input rows.)
 *
 * scratch: pk_dwconv2d_scratch_rows(K) rows of p->wp floats
 * (pk_dwconv2d_row_floats); the caller zeroes it once, the kernels write
 * only columns [pad_l, pad_l + w) of rows, so one scratch serves any number
 * of planes of one geometry.
 * Names: pk_f32_dwconv<K>x<K>s<S>_<isa>; one file per variant
 * (f32-dwconv3x3s1-avx512.c, ...), each with a scalar twin. Prefix pk_. */
#ifndef PK_UKERNELS_DWCONV_H
#define PK_UKERNELS_DWCONV_H

#include <stddef.h>

#include "core/core.h"

#define PK_DW_VMAX 16 /* widest vector of any ISA's body, in floats */

typedef struct pk_dwconv2d_params {
  size_t h, w;         /* input plane */
  size_t oh, ow;       /* output plane */
  size_t pad_t, pad_l; /* zero rows above, zero columns left */
  float min, max;      /* output clamp (-INFINITY, INFINITY for none) */
  size_t wp;           /* floats per staged row: pk_dwconv2d_row_floats */
  float *scratch;      /* pk_dwconv2d_scratch_rows(K) * wp floats, zeroed by the caller */
} pk_dwconv2d_params;

/* Floats per staged row: room for pad_l zeros, the row, its right padding
 * and the whole vectors the last output columns load: S*ow rounded up to
 * vectors and one vector more, which the taps (K <= 5) shift in from. A
 * multiple of 16. */
static inline size_t pk_dwconv2d_row_floats(size_t S, size_t w, size_t ow, size_t pad_l) {
  size_t owr = (ow + PK_DW_VMAX - 1) / PK_DW_VMAX * PK_DW_VMAX, a = S * owr + PK_DW_VMAX, b = pad_l + w;
  size_t n = a > b ? a : b;
  return (n + PK_DW_VMAX - 1) / PK_DW_VMAX * PK_DW_VMAX;
}

/* Rows of scratch: a ring of K + 2 staged rows and one zero row. */
static inline size_t pk_dwconv2d_scratch_rows(size_t K) { return K + 3; }

/* Whether the AVX-512 bodies run a plane without staging: output rows of
 * one vector, input rows of S vectors. */
static inline bool pk_dwconv2d_unstaged_avx512(size_t S, size_t w, size_t ow) { return ow <= 16 && w <= 16 * S; }

typedef void (*pk_f32_dwconv2d_fn)(const float *in, const float *w, float bias, float *out,
                                   const pk_dwconv2d_params *p);

#define PK_DWCONV_DECL(K, S, isa)                                                                \
  PT_FUNC void pk_f32_dwconv##K##x##K##s##S##_##isa(const float *in, const float *w, float bias, \
                                                    float *out, const pk_dwconv2d_params *p);
#define PK_DWCONV_DECL_ISA(isa) \
  PK_DWCONV_DECL(3, 1, isa)     \
  PK_DWCONV_DECL(3, 2, isa)     \
  PK_DWCONV_DECL(5, 1, isa)     \
  PK_DWCONV_DECL(5, 2, isa)
PK_DWCONV_DECL_ISA(scalar)
#if defined(__x86_64__)
PK_DWCONV_DECL_ISA(avx2)
PK_DWCONV_DECL_ISA(avx512)
#elif defined(__aarch64__)
PK_DWCONV_DECL_ISA(neon)
#endif
#undef PK_DWCONV_DECL_ISA
#undef PK_DWCONV_DECL

#endif

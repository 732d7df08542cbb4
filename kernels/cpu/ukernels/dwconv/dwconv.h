/* f32 depthwise 2-d convolution micro-kernels, NCHW: one channel plane each.
 *
 * out[oy][ox] = clamp(bias + sum_{ky,kx} w[ky*K+kx] * in[oy*S - pad_t + ky][ox*S - pad_l + kx],
 *                     min, max)
 * with taps outside the h x w input reading zero (padding). in is h x w and
 * out oh x ow, both rows contiguous; any padding and output extent is fine
 * (edges run through bounds-checked loops, the interior is vectorised along
 * the row). Names: pk_f32_dwconv<K>x<K>s<S>_<isa>; one file per variant
 * (f32-dwconv3x3s1-avx512.c, ...), each with a scalar twin. Prefix pk_. */
#ifndef PK_UKERNELS_DWCONV_H
#define PK_UKERNELS_DWCONV_H

#include <stddef.h>

#include "core/core.h"

typedef struct pk_dwconv2d_params {
  size_t h, w;         /* input plane */
  size_t oh, ow;       /* output plane */
  size_t pad_t, pad_l; /* zero rows above, zero columns left */
  float min, max;      /* output clamp (-INFINITY, INFINITY for none) */
} pk_dwconv2d_params;

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

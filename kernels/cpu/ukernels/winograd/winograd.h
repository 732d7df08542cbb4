/* Winograd transforms (f32) for the 3x3 stride-1 convolution
 * (kernels/cpu/conv2d_winograd.c), in two sizes: F(2x2, 3x3) (wino23) and
 * F(4x4, 3x3) (wino43). With tile size m, output tile (ty, tx) is the m x m
 * block of output rows m ty .. m ty + m - 1 and the same columns; it reads
 * the (m + 2) x (m + 2) input patch from row m ty - pad_h, column
 * m tx - pad_w (zero outside the plane). Per tile, u = G g G^T (filter),
 * v = B^T d B (input), m the sum over input channels of u ⊙ v (the alpha
 * products the GEMM computes), y = A^T m A (output).
 * F(2x2, 3x3), 16 alphas (points 0, 1, -1, inf):
 *   G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1];
 *   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1];
 *   A^T = [1 1 1 0; 0 1 -1 -1].
 * F(4x4, 3x3), 36 alphas (Lavin and Gray, points 0, 1, -1, 2, -2, inf):
 *   G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6;
 *        1/24 -1/12 1/6; 0 0 1];
 *   B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0;
 *          0 2 -1 -2 1 0; 0 4 0 -5 0 1];
 *   A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1].
 * Element (r, s) of an n x n transform (n = m + 2) is "alpha" a = n r + s;
 * each function writes or reads alpha a at a fixed stride apart
 * (a * a_stride). The input and output transforms exist per ISA
 * (wino23_body.h, wino43_body.h compiled with each one's flags); the filter
 * transforms run once, at packing. */
#ifndef PK_CPU_UKERNELS_WINOGRAD_H
#define PK_CPU_UKERNELS_WINOGRAD_H

#include <stddef.h>

#include "core/core.h"

typedef struct pk_wino_plane {
  size_t h, w;         /* input plane */
  size_t oh, ow;       /* output plane */
  size_t pad_h, pad_w; /* top / left padding */
  size_t tiles_w;      /* tiles per row: ceil(ow / m) */
} pk_wino_plane;

/* Transforms tiles t0 .. t0 + n - 1 (row-major over the tile grid) of one
 * input plane: v[a * a_stride + l] for tile t0 + l. */
typedef void (*pk_f32_wino_input_fn)(const pk_wino_plane *p, const float *in, size_t t0, size_t n, float *v,
                                     size_t a_stride);
/* Output tiles t0 .. t0 + n - 1 of one output plane from m[a * a_stride + l]:
 * y = clamp(A^T m A + bias, min, max), the parts inside the plane written. */
typedef void (*pk_f32_wino_output_fn)(const pk_wino_plane *p, const float *m, size_t a_stride, size_t t0,
                                      size_t n, float bias, float min, float max, float *out);

/* u[a * a_stride] = (G g G^T)[a] for one 3x3 filter g (row-major). */
PT_FUNC void pk_f32_wino23_filter_scalar(const float *g, float *u, size_t a_stride);
PT_FUNC void pk_f32_wino43_filter_scalar(const float *g, float *u, size_t a_stride);

#define PK_WINO_DECLARE(f, isa)                                                                                  \
  PT_FUNC void pk_f32_##f##_input_##isa(const pk_wino_plane *p, const float *in, size_t t0, size_t n, float *v, \
                                        size_t a_stride);                                                       \
  PT_FUNC void pk_f32_##f##_output_##isa(const pk_wino_plane *p, const float *m, size_t a_stride, size_t t0,    \
                                         size_t n, float bias, float min, float max, float *out);
PK_WINO_DECLARE(wino23, scalar)
PK_WINO_DECLARE(wino43, scalar)
#if defined(__x86_64__)
PK_WINO_DECLARE(wino23, avx2)
PK_WINO_DECLARE(wino43, avx2)
PK_WINO_DECLARE(wino23, avx512)
PK_WINO_DECLARE(wino43, avx512)
#elif defined(__aarch64__)
PK_WINO_DECLARE(wino23, neon)
PK_WINO_DECLARE(wino43, neon)
#endif
#undef PK_WINO_DECLARE

#endif

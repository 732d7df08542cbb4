/* Winograd F(2x2, 3x3) transforms (f32) for the 3x3 stride-1 convolution
 * (kernels/cpu/conv2d_winograd.c). Output tile (ty, tx) is the 2x2 block of
 * output rows 2ty, 2ty + 1 and columns 2tx, 2tx + 1; it reads the 4x4 input
 * patch from row 2ty - pad_h, column 2tx - pad_w (zero outside the plane).
 *   filter: u = G g G^T, G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1];
 *   input:  v = B^T d B, B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1];
 *   output: y = A^T m A, A^T = [1 1 1 0; 0 1 -1 -1], m the sum over input
 *           channels of u ⊙ v (the 16 products the GEMM computes).
 * Element (r, s) of a 4x4 transform is "alpha" a = 4r + s; each function
 * writes or reads alpha a at a fixed stride apart (a * a_stride).
 * The input and output transforms exist per ISA (wino23_body.h compiled
 * with each one's flags); the filter transform runs once, at packing. */
#ifndef PK_CPU_UKERNELS_WINOGRAD_H
#define PK_CPU_UKERNELS_WINOGRAD_H

#include <stddef.h>

#include "core/core.h"

typedef struct pk_wino23_plane {
  size_t h, w;         /* input plane */
  size_t oh, ow;       /* output plane */
  size_t pad_h, pad_w; /* top / left padding */
  size_t tiles_w;      /* tiles per row: ceil(ow / 2) */
} pk_wino23_plane;

/* u[a * a_stride] = (G g G^T)[a] for one 3x3 filter g (row-major). */
PT_FUNC void pk_f32_wino23_filter_scalar(const float *g, float *u, size_t a_stride);
/* Transforms tiles t0 .. t0 + n - 1 (row-major over the tile grid) of one
 * input plane: v[a * a_stride + l] for tile t0 + l. */
PT_FUNC void pk_f32_wino23_input_scalar(const pk_wino23_plane *p, const float *in, size_t t0, size_t n, float *v,
                                        size_t a_stride);
/* Output tiles t0 .. t0 + n - 1 of one output plane from m[a * a_stride + l]:
 * y = clamp(A^T m A + bias, min, max), the parts inside the plane written. */
PT_FUNC void pk_f32_wino23_output_scalar(const pk_wino23_plane *p, const float *m, size_t a_stride, size_t t0,
                                         size_t n, float bias, float min, float max, float *out);

typedef void (*pk_f32_wino23_input_fn)(const pk_wino23_plane *p, const float *in, size_t t0, size_t n, float *v,
                                       size_t a_stride);
typedef void (*pk_f32_wino23_output_fn)(const pk_wino23_plane *p, const float *m, size_t a_stride, size_t t0,
                                        size_t n, float bias, float min, float max, float *out);
#if defined(__x86_64__)
PT_FUNC void pk_f32_wino23_input_avx2(const pk_wino23_plane *p, const float *in, size_t t0, size_t n, float *v,
                                      size_t a_stride);
PT_FUNC void pk_f32_wino23_output_avx2(const pk_wino23_plane *p, const float *m, size_t a_stride, size_t t0,
                                       size_t n, float bias, float min, float max, float *out);
PT_FUNC void pk_f32_wino23_input_avx512(const pk_wino23_plane *p, const float *in, size_t t0, size_t n, float *v,
                                        size_t a_stride);
PT_FUNC void pk_f32_wino23_output_avx512(const pk_wino23_plane *p, const float *m, size_t a_stride, size_t t0,
                                         size_t n, float bias, float min, float max, float *out);
#elif defined(__aarch64__)
PT_FUNC void pk_f32_wino23_input_neon(const pk_wino23_plane *p, const float *in, size_t t0, size_t n, float *v,
                                      size_t a_stride);
PT_FUNC void pk_f32_wino23_output_neon(const pk_wino23_plane *p, const float *m, size_t a_stride, size_t t0,
                                       size_t n, float bias, float min, float max, float *out);
#endif

#endif

/* f32 pooling micro-kernels, NCHW: one channel plane each.
 *
 * Max pool (pk_f32_maxpool2d_s<S>_<isa>, S = 1 or 2 both ways; the scalar twin
 * takes any stride): out[oy][ox] = the largest in[y][x] over the window's
 * taps y = oy*sh - pad_t + ky*dh, x = ox*sw - pad_l + kx*dw inside the
 * input, scanned row by row; the first maximum wins, a NaN beats any
 * number and the first NaN stays; idx (when not NULL) gets y*w + x of the winner (the
 * window's first tap when every value is -inf). As the portable kernel.
 * h * w must be below 2^31 (indices are kept in 32 bits).
 *
 * Average pool (pk_f32_avgpool2d_<isa>): out[oy][ox] = the sum of the
 * window's taps inside the input divided by `divisor` when non-zero, else by
 * the window's size clipped to the padded input (include_pad) or the number
 * of taps inside (NaN when none); as the portable kernel, up to rounding
 * (rows are summed first, then columns).
 *
 * Global average pool (pk_f32_gavgpool_<isa>): the mean of n >= 1 floats.
 * Prefix pk_. */
#ifndef PK_UKERNELS_POOL_H
#define PK_UKERNELS_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

typedef struct pk_maxpool2d_params {
  size_t h, w, oh, ow;
  size_t kh, kw, sh, sw, dh, dw, pad_t, pad_l;
} pk_maxpool2d_params;

typedef struct pk_avgpool2d_params {
  size_t h, w, oh, ow;
  size_t kh, kw, sh, sw, pad_t, pad_l;
  int64_t divisor; /* 0: by the window */
  int include_pad;
} pk_avgpool2d_params;

typedef void (*pk_f32_avgpool2d_fn)(const float *in, float *out, const pk_avgpool2d_params *p);
typedef void (*pk_f32_maxpool2d_fn)(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p);
typedef float (*pk_f32_gavgpool_fn)(const float *x, size_t n);

#define PK_POOL_DECL(isa)                                                                            \
  PT_FUNC void pk_f32_maxpool2d_s1_##isa(const float *in, float *out, int64_t *idx,                 \
                                         const pk_maxpool2d_params *p);                              \
  PT_FUNC void pk_f32_maxpool2d_s2_##isa(const float *in, float *out, int64_t *idx,                 \
                                         const pk_maxpool2d_params *p);                              \
  PT_FUNC float pk_f32_gavgpool_##isa(const float *x, size_t n);                                    \
  PT_FUNC void pk_f32_avgpool2d_##isa(const float *in, float *out, const pk_avgpool2d_params *p);
PK_POOL_DECL(scalar)
#if defined(__x86_64__)
PK_POOL_DECL(avx2)
PK_POOL_DECL(avx512)
#elif defined(__aarch64__)
PK_POOL_DECL(neon)
#endif
#undef PK_POOL_DECL
/* Any stride. */
PT_FUNC void pk_f32_maxpool2d_scalar(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p);

#endif

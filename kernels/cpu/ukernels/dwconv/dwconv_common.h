/* ISA-neutral pieces the depthwise micro-kernel bodies share (internal to
 * kernels/cpu/ukernels/dwconv). K and S are compile-time constants at every
 * call site, so these inline into straight-line code. */
#ifndef PK_UKERNELS_DWCONV_COMMON_H
#define PK_UKERNELS_DWCONV_COMMON_H

#include <string.h>

#include "cpu/ukernels/dwconv/dwconv.h"

#define PK_DW_INLINE static inline __attribute__((always_inline))

/* Ring slots of staged rows: the K rows one output row reads and the S
 * rows the next one adds, staged one output row ahead so that the loads of
 * a row never wait on the stores that staged it. */
#define PK_DW_RING(K) ((K) + 2)

/* The K staged rows output row oy reads: rows[ky] is input row
 * oy*S - pad_t + ky padded (column c of it is input column c - pad_l), or
 * the zero row where that row lies outside the input. Input rows go into
 * ring slot (row mod PK_DW_RING(K)) up to the last row output row oy + 1
 * reads; *next is the first row not yet copied. A row's slot is reused only
 * PK_DW_RING(K) rows later, after every output row that reads it. */
/* Copies n floats of a row: memcpy (the scalar body) or the vector bodies'
 * own loop, which beats a library call on the short rows of small planes. */
typedef void (*pk_dw_copy_fn)(float *dst, const float *src, size_t n);
PK_DW_INLINE void pk_dw_memcpy(float *dst, const float *src, size_t n) { memcpy(dst, src, n * sizeof *dst); }

PK_DW_INLINE void pk_dw_stage(const float *in, const pk_dwconv2d_params *p, size_t K, size_t S, size_t oy,
                              size_t *next, const float **rows, pk_dw_copy_fn copy) {
  const size_t R = PK_DW_RING(K);
  const float *zero = p->scratch + R * p->wp;
  ptrdiff_t iy0 = (ptrdiff_t)(oy * S) - (ptrdiff_t)p->pad_t, last = iy0 + (ptrdiff_t)(K - 1 + S);
  if (last >= (ptrdiff_t)p->h) last = (ptrdiff_t)p->h - 1;
  for (; (ptrdiff_t)*next <= last; (*next)++)
    copy(p->scratch + (*next % R) * p->wp + p->pad_l, in + *next * p->w, p->w);
  for (size_t ky = 0; ky < K; ky++) {
    ptrdiff_t iy = iy0 + (ptrdiff_t)ky;
    rows[ky] = iy < 0 || iy >= (ptrdiff_t)p->h ? zero : p->scratch + ((size_t)iy % R) * p->wp;
  }
}

PK_DW_INLINE float pk_dw_clamp(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

#endif

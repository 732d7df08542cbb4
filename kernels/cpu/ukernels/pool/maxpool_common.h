/* ISA-neutral pieces of the max-pool bodies (internal to ukernels/pool). */
#ifndef PK_UKERNELS_MAXPOOL_COMMON_H
#define PK_UKERNELS_MAXPOOL_COMMON_H

#include "cpu/ukernels/pool/pool.h"

#define PK_MP_INLINE static inline __attribute__((always_inline))

/* Output columns [*lo, *hi) whose taps all lie inside the row. */
PK_MP_INLINE void pk_mp_interior(const pk_maxpool2d_params *p, size_t S, size_t *lo, size_t *hi) {
  size_t span = (p->kw - 1) * p->dw + 1;
  size_t a = (p->pad_l + S - 1) / S;
  size_t b = p->w + p->pad_l >= span ? (p->w + p->pad_l - span) / S + 1 : 0;
  if (b > p->ow) b = p->ow;
  if (a > p->ow) a = p->ow;
  *lo = a;
  *hi = b > a ? b : a;
}

/* Kernel rows [*k0, *k1) inside the input for output row oy (k0 = k1: none). */
PK_MP_INLINE void pk_mp_rows(const pk_maxpool2d_params *p, size_t oy, size_t *k0, size_t *k1) {
  ptrdiff_t y0 = (ptrdiff_t)(oy * p->sh) - (ptrdiff_t)p->pad_t, d = (ptrdiff_t)p->dh;
  size_t a = 0;
  while (a < p->kh && y0 + (ptrdiff_t)a * d < 0) a++;
  size_t b = a;
  while (b < p->kh && y0 + (ptrdiff_t)b * d < (ptrdiff_t)p->h) b++;
  *k0 = a;
  *k1 = b;
}

/* One output with every tap checked (edges, and the scalar twin); idx may
 * be NULL (no index written). */
PK_MP_INLINE void pk_mp_pixel(const float *in, float *out, int64_t *idx, const pk_maxpool2d_params *p,
                              size_t k0, size_t k1, size_t oy, size_t ox) {
  ptrdiff_t y0 = (ptrdiff_t)(oy * p->sh) - (ptrdiff_t)p->pad_t;
  ptrdiff_t x0 = (ptrdiff_t)(ox * p->sw) - (ptrdiff_t)p->pad_l;
  size_t j0 = 0;
  while (j0 < p->kw && x0 + (ptrdiff_t)(j0 * p->dw) < 0) j0++;
  float best = -INFINITY;
  int64_t bi = (y0 + (ptrdiff_t)(k0 * p->dh)) * (ptrdiff_t)p->w + x0 + (ptrdiff_t)(j0 * p->dw);
  for (size_t ky = k0; ky < k1; ky++) {
    ptrdiff_t y = y0 + (ptrdiff_t)(ky * p->dh);
    for (size_t kx = j0; kx < p->kw; kx++) {
      ptrdiff_t x = x0 + (ptrdiff_t)(kx * p->dw);
      if (x >= (ptrdiff_t)p->w) break;
      float v = in[y * (ptrdiff_t)p->w + x];
      if ((v > best || v != v) && best == best) {
        best = v;
        bi = y * (ptrdiff_t)p->w + x;
      }
    }
  }
  *out = best;
  if (idx) *idx = bi;
}

PK_MP_INLINE void pk_mp_span(const float *in, float *orow, int64_t *irow, const pk_maxpool2d_params *p,
                             size_t k0, size_t k1, size_t oy, size_t from, size_t to) {
  for (size_t ox = from; ox < to; ox++) pk_mp_pixel(in, orow + ox, irow ? irow + ox : NULL, p, k0, k1, oy, ox);
}

#endif

/* What the Winograd transform bodies (wino23_body.h, wino43_body.h) share:
 * the patch load at the plane's edges, the clamp, and the walk that cuts a
 * range of tiles into vector runs and single tiles. Static, included once
 * per ISA file through its body. */
#ifndef PK_CPU_UKERNELS_WINOGRAD_TILES_H
#define PK_CPU_UKERNELS_WINOGRAD_TILES_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu/ukernels/winograd/winograd.h"

#define WINO_ALWAYS_INLINE static inline __attribute__((always_inline))

/* d[r * size + s] = in[y0 + r][x0 + s] for r, s < size (a constant at each
 * call), zero outside the plane. */
WINO_ALWAYS_INLINE void wino_load_patch(const pk_wino_plane *p, const float *in, ptrdiff_t y0, ptrdiff_t x0,
                                        int size, float *d) {
  if (y0 >= 0 && x0 >= 0 && y0 + size <= (ptrdiff_t)p->h && x0 + size <= (ptrdiff_t)p->w) {
    const float *row = in + (size_t)y0 * p->w + (size_t)x0;
    for (int r = 0; r < size; r++, row += p->w)
      for (int s = 0; s < size; s++) d[r * size + s] = row[s];
    return;
  }
  for (int r = 0; r < size; r++) {
    ptrdiff_t y = y0 + r;
    for (int s = 0; s < size; s++) {
      ptrdiff_t x = x0 + s;
      d[r * size + s] = y >= 0 && x >= 0 && y < (ptrdiff_t)p->h && x < (ptrdiff_t)p->w
                            ? in[(size_t)y * p->w + (size_t)x]
                            : 0.0f;
    }
  }
}

static inline float wino_clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

/* Tiles t0 .. t0 + n - 1, row by row: in each tile row the tiles in
 * [lo, hi) of the row (`range` sets them for row ty) go by runs of L,
 * then LS, the last short run moved back to end at the range's end
 * (recomputing a few lanes rather than leaving them to the one-tile path),
 * the rest one by one. */
#define WINO_ROWS(p, t0, n, L, LS, range, run, one)                            \
  do {                                                                         \
    size_t l_ = 0;                                                             \
    while (l_ < (n)) {                                                         \
      size_t t_ = (t0) + l_, ty = t_ / (p)->tiles_w, tx = t_ % (p)->tiles_w;   \
      size_t e_ = (p)->tiles_w - tx < (n) - l_ ? (p)->tiles_w : tx + (n) - l_; \
      size_t lo, hi;                                                           \
      range;                                                                   \
      if (lo < tx) lo = tx;                                                    \
      if (hi > e_) hi = e_;                                                    \
      if (hi < lo + (LS)) lo = hi = e_;                                        \
      size_t base_ = l_ - tx; /* lane of tile column 0 in this row */          \
      for (size_t x = tx; x < lo; x++) one(x, base_ + x);                      \
      if (lo < hi) {                                                           \
        size_t x = lo;                                                         \
        for (; x + (L) <= hi; x += (L)) run(x, base_ + x, (L));                \
        for (; x + (LS) <= hi; x += (LS)) run(x, base_ + x, (LS));             \
        if (x < hi) run(hi - (LS), base_ + hi - (LS), (LS));                   \
      }                                                                        \
      for (size_t x = hi > lo ? hi : lo; x < e_; x++) one(x, base_ + x);       \
      l_ += e_ - tx;                                                           \
    }                                                                          \
  } while (0)

#endif

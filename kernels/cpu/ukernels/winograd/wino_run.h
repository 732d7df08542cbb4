/* The runs of the vectorised transforms (f32-winograd-f*-avx512.c): up to
 * `lanes` consecutive tiles of one tile row, and the window of input rows
 * a run reads. Static, internal to ukernels/winograd. */
#ifndef PK_CPU_UKERNELS_WINO_RUN_H
#define PK_CPU_UKERNELS_WINO_RUN_H

#include <string.h>

#include "cpu/ukernels/winograd/winograd.h"

/* Tiles of the run starting at tile t0 + l (n tiles asked for from t0),
 * and its tile row and column. */
static inline size_t wino_run_tiles(const pk_wino_plane *p, size_t t0, size_t l, size_t n, size_t lanes,
                                    size_t *ty, size_t *tx) {
  size_t t = t0 + l, cnt;
  *ty = t / p->tiles_w;
  *tx = t % p->tiles_w;
  cnt = p->tiles_w - *tx;
  if (cnt > n - l) cnt = n - l;
  return cnt < lanes ? cnt : lanes;
}

/* The top-left of the run's window of `rows` rows and w = m * cnt + 2
 * columns (tile size m): in place when `win_w` floats from it lie inside
 * every row of the plane (*stride = p->w), else a copy in win (rows x
 * win_w, zero outside the plane and past w; *stride = win_w). */
static inline const float *wino_run_window(const pk_wino_plane *p, const float *in, size_t ty, size_t tx,
                                           size_t cnt, size_t m, size_t rows, size_t win_w, float *win,
                                           size_t *stride) {
  ptrdiff_t y0 = (ptrdiff_t)(m * ty) - (ptrdiff_t)p->pad_h, x0 = (ptrdiff_t)(m * tx) - (ptrdiff_t)p->pad_w;
  if (y0 >= 0 && y0 + (ptrdiff_t)rows <= (ptrdiff_t)p->h && x0 >= 0 && x0 + (ptrdiff_t)win_w <= (ptrdiff_t)p->w) {
    *stride = p->w;
    return in + (size_t)y0 * p->w + (size_t)x0;
  }
  ptrdiff_t W = (ptrdiff_t)(m * cnt + 2), c0 = x0 < 0 ? -x0 : 0;
  ptrdiff_t c1 = (ptrdiff_t)p->w - x0 < W ? (ptrdiff_t)p->w - x0 : W;
  memset(win, 0, rows * win_w * sizeof *win);
  for (ptrdiff_t r = 0; r < (ptrdiff_t)rows; r++) {
    ptrdiff_t y = y0 + r;
    if (y >= 0 && y < (ptrdiff_t)p->h && c1 > c0)
      memcpy(win + (size_t)r * win_w + c0, in + (size_t)y * p->w + (size_t)(x0 + c0), (size_t)(c1 - c0) * sizeof *win);
  }
  *stride = win_w;
  return win;
}

#endif

/* The body of the Winograd F(2x2, 3x3) input and output transforms,
 * included once per ISA file with WINO_FN(name) naming its functions: the
 * same C compiled with that ISA's flags. Runs of WINO_L tiles inside one
 * tile row and away from the plane's edges go through fixed-length lane
 * loops the compiler vectorizes (the stride-2 patch reads and the
 * interleaved 2x2 writes included); other tiles one at a time. */
#include <stdbool.h>
#include <stddef.h>

#include "cpu/ukernels/winograd/winograd.h"

#define WINO_L 16

/* The 4x4 patch of tile (ty, tx), zero outside the plane. */
static void load_patch(const pk_wino23_plane *p, const float *in, size_t ty, size_t tx, float d[4][4]) {
  ptrdiff_t y0 = (ptrdiff_t)(2 * ty) - (ptrdiff_t)p->pad_h, x0 = (ptrdiff_t)(2 * tx) - (ptrdiff_t)p->pad_w;
  if (y0 >= 0 && x0 >= 0 && y0 + 4 <= (ptrdiff_t)p->h && x0 + 4 <= (ptrdiff_t)p->w) {
    const float *row = in + (size_t)y0 * p->w + (size_t)x0;
    for (int r = 0; r < 4; r++, row += p->w)
      for (int s = 0; s < 4; s++) d[r][s] = row[s];
    return;
  }
  for (int r = 0; r < 4; r++) {
    ptrdiff_t y = y0 + r;
    for (int s = 0; s < 4; s++) {
      ptrdiff_t x = x0 + s;
      d[r][s] = y >= 0 && x >= 0 && y < (ptrdiff_t)p->h && x < (ptrdiff_t)p->w ? in[(size_t)y * p->w + (size_t)x]
                                                                                : 0.0f;
    }
  }
}

/* Tiles t0 .. t0 + n - 1 one at a time. */
static void input_tiles(const pk_wino23_plane *p, const float *in, size_t t0, size_t n, float *v,
                        size_t a_stride) {
  size_t ty = t0 / p->tiles_w, tx = t0 % p->tiles_w;
  for (size_t l = 0; l < n; l++) {
    float d[4][4], t[4][4];
    load_patch(p, in, ty, tx, d);
    for (int s = 0; s < 4; s++) { /* B^T d */
      t[0][s] = d[0][s] - d[2][s];
      t[1][s] = d[1][s] + d[2][s];
      t[2][s] = d[2][s] - d[1][s];
      t[3][s] = d[1][s] - d[3][s];
    }
    for (int r = 0; r < 4; r++) { /* (B^T d) B */
      float *o = v + (size_t)(4 * r) * a_stride + l;
      o[0] = t[r][0] - t[r][2];
      o[a_stride] = t[r][1] + t[r][2];
      o[2 * a_stride] = t[r][2] - t[r][1];
      o[3 * a_stride] = t[r][1] - t[r][3];
    }
    if (++tx == p->tiles_w) {
      tx = 0;
      ty++;
    }
  }
}

static float clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

static void output_tiles(const pk_wino23_plane *p, const float *m, size_t a_stride, size_t t0,
                         size_t n, float bias, float min, float max, float *out) {
  size_t ty = t0 / p->tiles_w, tx = t0 % p->tiles_w;
  for (size_t l = 0; l < n; l++) {
    float s[2][4]; /* A^T m */
    for (int c = 0; c < 4; c++) {
      float m0 = m[(size_t)c * a_stride + l], m1 = m[(size_t)(4 + c) * a_stride + l];
      float m2 = m[(size_t)(8 + c) * a_stride + l], m3 = m[(size_t)(12 + c) * a_stride + l];
      s[0][c] = m0 + m1 + m2;
      s[1][c] = m1 - m2 - m3;
    }
    size_t y = 2 * ty, x = 2 * tx;
    for (size_t i = 0; i < 2 && y + i < p->oh; i++) { /* (A^T m) A */
      float *o = out + (y + i) * p->ow + x;
      o[0] = clampf(s[i][0] + s[i][1] + s[i][2] + bias, min, max);
      if (x + 1 < p->ow) o[1] = clampf(s[i][1] - s[i][2] - s[i][3] + bias, min, max);
    }
    if (++tx == p->tiles_w) {
      tx = 0;
      ty++;
    }
  }
}

/* WINO_L tiles from (ty, tx) in one row, their patches inside the plane. */
static void input_run(const pk_wino23_plane *p, const float *in, size_t ty, size_t tx, float *v, size_t a_stride) {
  const float *row = in + (2 * ty - p->pad_h) * p->w + 2 * tx - p->pad_w;
  float d[4][4][WINO_L], t[4][4][WINO_L];
  for (int r = 0; r < 4; r++)
    for (int s = 0; s < 4; s++)
      for (int l = 0; l < WINO_L; l++) d[r][s][l] = row[r * p->w + 2 * l + s];
  for (int s = 0; s < 4; s++)
    for (int l = 0; l < WINO_L; l++) {
      t[0][s][l] = d[0][s][l] - d[2][s][l];
      t[1][s][l] = d[1][s][l] + d[2][s][l];
      t[2][s][l] = d[2][s][l] - d[1][s][l];
      t[3][s][l] = d[1][s][l] - d[3][s][l];
    }
  for (int r = 0; r < 4; r++) {
    float *o0 = v + (size_t)(4 * r) * a_stride, *o1 = o0 + a_stride, *o2 = o1 + a_stride, *o3 = o2 + a_stride;
    for (int l = 0; l < WINO_L; l++) {
      o0[l] = t[r][0][l] - t[r][2][l];
      o1[l] = t[r][1][l] + t[r][2][l];
      o2[l] = t[r][2][l] - t[r][1][l];
      o3[l] = t[r][1][l] - t[r][3][l];
    }
  }
}

/* Tiles t0 .. t0 + n - 1, row by row: in each tile row the tiles in
 * [lo, hi) of the row (*range gives them for row ty) go by runs of WINO_L,
 * the last run moved back to end at the range's end (recomputing a few
 * lanes rather than leaving them to the one-tile path), the rest one by one. */
#define WINO_ROWS(p, t0, n, range, run, one)                                   \
  do {                                                                         \
    size_t l_ = 0;                                                             \
    while (l_ < (n)) {                                                         \
      size_t t_ = (t0) + l_, ty = t_ / (p)->tiles_w, tx = t_ % (p)->tiles_w;   \
      size_t e_ = (p)->tiles_w - tx < (n) - l_ ? (p)->tiles_w : tx + (n) - l_; \
      size_t lo, hi;                                                           \
      range;                                                                   \
      if (lo < tx) lo = tx;                                                    \
      if (hi > e_) hi = e_;                                                    \
      if (hi < lo + WINO_L) lo = hi = e_;                                      \
      size_t base_ = l_ - tx; /* lane of tile column 0 in this row */          \
      for (size_t x = tx; x < lo; x++) one(x, base_ + x);                      \
      if (lo < hi) {                                                           \
        size_t x = lo;                                                         \
        for (; x + WINO_L <= hi; x += WINO_L) run(x, base_ + x);               \
        if (x < hi) run(hi - WINO_L, base_ + hi - WINO_L);                     \
      }                                                                        \
      for (size_t x = hi > lo ? hi : lo; x < e_; x++) one(x, base_ + x);       \
      l_ += e_ - tx;                                                           \
    }                                                                          \
  } while (0)

void WINO_FN(pk_f32_wino23_input)(const pk_wino23_plane *p, const float *in, size_t t0, size_t n, float *v,
                                  size_t a_stride) {
  size_t xlo = (p->pad_w + 1) / 2, xhi = p->w + p->pad_w >= 4 ? (p->w + p->pad_w - 4) / 2 + 1 : 0;
#define IN_RANGE                                                                                         \
  bool rows_in = 2 * ty >= p->pad_h && 2 * ty - p->pad_h + 4 <= p->h;                                  \
  lo = rows_in ? xlo : 0;                                                                              \
  hi = rows_in ? xhi : 0
#define IN_RUN(x, lane) input_run(p, in, ty, x, v + (lane), a_stride)
#define IN_ONE(x, lane) input_tiles(p, in, ty * p->tiles_w + (x), 1, v + (lane), a_stride)
  WINO_ROWS(p, t0, n, IN_RANGE, IN_RUN, IN_ONE);
#undef IN_RANGE
#undef IN_RUN
#undef IN_ONE
}

/* WINO_L tiles from (ty, tx) in one row, their outputs inside the plane. */
static void output_run(const pk_wino23_plane *p, const float *m, size_t a_stride, size_t ty, size_t tx, float bias,
                       float min, float max, float *out) {
  float s[2][4][WINO_L], y[2][2 * WINO_L];
  for (int c = 0; c < 4; c++) {
    const float *m0 = m + (size_t)c * a_stride, *m1 = m0 + 4 * a_stride, *m2 = m1 + 4 * a_stride,
                *m3 = m2 + 4 * a_stride;
    for (int l = 0; l < WINO_L; l++) {
      s[0][c][l] = m0[l] + m1[l] + m2[l];
      s[1][c][l] = m1[l] - m2[l] - m3[l];
    }
  }
  for (int i = 0; i < 2; i++)
    for (int l = 0; l < WINO_L; l++) {
      float a = s[i][0][l] + s[i][1][l] + s[i][2][l] + bias, b = s[i][1][l] - s[i][2][l] - s[i][3][l] + bias;
      a = a < min ? min : a;
      a = a > max ? max : a;
      b = b < min ? min : b;
      b = b > max ? max : b;
      y[i][2 * l] = a;
      y[i][2 * l + 1] = b;
    }
  for (int i = 0; i < 2; i++) {
    float *o = out + (2 * ty + (size_t)i) * p->ow + 2 * tx;
    for (int e = 0; e < 2 * WINO_L; e++) o[e] = y[i][e];
  }
}

void WINO_FN(pk_f32_wino23_output)(const pk_wino23_plane *p, const float *m, size_t a_stride, size_t t0, size_t n,
                                   float bias, float min, float max, float *out) {
#define OUT_RANGE                          \
  lo = 0;                                  \
  hi = 2 * ty + 2 <= p->oh ? p->ow / 2 : 0
#define OUT_RUN(x, lane) output_run(p, m + (lane), a_stride, ty, x, bias, min, max, out)
#define OUT_ONE(x, lane) output_tiles(p, m + (lane), a_stride, ty * p->tiles_w + (x), 1, bias, min, max, out)
  WINO_ROWS(p, t0, n, OUT_RANGE, OUT_RUN, OUT_ONE);
#undef OUT_RANGE
#undef OUT_RUN
#undef OUT_ONE
}

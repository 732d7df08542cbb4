/* The body of the Winograd F(4x4, 3x3) input and output transforms
 * (winograd.h), included once per ISA file with WINO_FN(name) naming its
 * functions: the same C compiled with that ISA's flags. Runs of WINO43_L
 * (or WINO43_LS) tiles inside one tile row go through fixed-length lane
 * loops the compiler vectorizes (the stride-4 patch reads and the
 * interleaved 4-wide writes included): input runs at the plane's edges
 * from a zero-padded copy of their window, output runs where their tiles
 * lie inside the plane; other tiles (rows of fewer than WINO43_LS, partial
 * output tiles) one at a time. Both apply the same 1-D transforms, bt6 and
 * at6. */
#include <string.h>

#include "cpu/ukernels/winograd/wino_tiles.h"

#define WINO43_L 8  /* long runs (32 output columns) */
#define WINO43_LS 4 /* short runs */

/* o[k * os] = (B^T d)[k], k < 6, for d[k * ds]. */
WINO_ALWAYS_INLINE void bt6(const float *d, size_t ds, float *o, size_t os) {
  float d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds], d4 = d[4 * ds], d5 = d[5 * ds];
  float a = d4 - 4.0f * d2, b = d3 - 4.0f * d1, c = d4 - d2, e = 2.0f * (d3 - d1);
  o[0] = 4.0f * d0 - 5.0f * d2 + d4;
  o[os] = a + b;
  o[2 * os] = a - b;
  o[3 * os] = c + e;
  o[4 * os] = c - e;
  o[5 * os] = 4.0f * d1 - 5.0f * d3 + d5;
}

/* o[k * os] = (A^T m)[k], k < 4, for m[k * ms], k < 6. */
WINO_ALWAYS_INLINE void at6(const float *m, size_t ms, float *o, size_t os) {
  float m1 = m[ms], m2 = m[2 * ms], m3 = m[3 * ms], m4 = m[4 * ms];
  float s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4;
  o[0] = m[0] + s12 + s34;
  o[os] = d12 + 2.0f * d34;
  o[2 * os] = s12 + 4.0f * s34;
  o[3 * os] = d12 + 8.0f * d34 + m[5 * ms];
}

/* Tile t0 + l of the grid into v[a * a_stride + l], one at a time. */
static void input_tiles(const pk_wino_plane *p, const float *in, size_t t0, size_t n, float *v, size_t a_stride) {
  size_t ty = t0 / p->tiles_w, tx = t0 % p->tiles_w;
  for (size_t l = 0; l < n; l++) {
    float d[6][6], t[6][6];
    wino_load_patch(p, in, (ptrdiff_t)(4 * ty) - (ptrdiff_t)p->pad_h, (ptrdiff_t)(4 * tx) - (ptrdiff_t)p->pad_w, 6,
                    &d[0][0]);
    for (int s = 0; s < 6; s++) bt6(&d[0][s], 6, &t[0][s], 6);                       /* B^T d */
    for (int r = 0; r < 6; r++) bt6(t[r], 1, v + (size_t)(6 * r) * a_stride + l, a_stride); /* (B^T d) B */
    if (++tx == p->tiles_w) {
      tx = 0;
      ty++;
    }
  }
}

static void output_tiles(const pk_wino_plane *p, const float *m, size_t a_stride, size_t t0, size_t n, float bias,
                         float min, float max, float *out) {
  size_t ty = t0 / p->tiles_w, tx = t0 % p->tiles_w;
  for (size_t l = 0; l < n; l++) {
    float s[4][6], y[4]; /* A^T m */
    for (int c = 0; c < 6; c++) at6(m + (size_t)c * a_stride + l, 6 * a_stride, &s[0][c], 6);
    size_t y0 = 4 * ty, x0 = 4 * tx;
    for (size_t i = 0; i < 4 && y0 + i < p->oh; i++) { /* (A^T m) A */
      float *o = out + (y0 + i) * p->ow + x0;
      at6(s[i], 1, y, 1);
      for (size_t e = 0; e < 4 && x0 + e < p->ow; e++) o[e] = wino_clampf(y[e] + bias, min, max);
    }
    if (++tx == p->tiles_w) {
      tx = 0;
      ty++;
    }
  }
}

/* L (WINO43_L or WINO43_LS, a constant at each call) tiles in one row
 * whose 6 x (4L + 2) window starts at row, rows `stride` apart. */
WINO_ALWAYS_INLINE void input_run(const float *row, size_t stride, float *v, size_t a_stride, int L) {
  float d[6][6][WINO43_L], t[6][6][WINO43_L];
  for (int r = 0; r < 6; r++)
    for (int s = 0; s < 6; s++)
      for (int l = 0; l < L; l++) d[r][s][l] = row[(size_t)r * stride + 4 * (size_t)l + (size_t)s];
  for (int s = 0; s < 6; s++)
    for (int l = 0; l < L; l++) bt6(&d[0][s][l], 6 * WINO43_L, &t[0][s][l], 6 * WINO43_L);
  for (int r = 0; r < 6; r++)
    for (int l = 0; l < L; l++) bt6(&t[r][0][l], WINO43_L, v + (size_t)(6 * r) * a_stride + l, a_stride);
}

/* The same for the L tiles from (ty, tx): in place where their window lies
 * inside the plane ([xlo, xhi) the tile columns whose patches do, rows_in
 * whether row ty's do), else from a copy, zero outside the plane. */
WINO_ALWAYS_INLINE void input_run_at(const pk_wino_plane *p, const float *in, size_t ty, size_t tx, bool rows_in,
                                     size_t xlo, size_t xhi, float *v, size_t a_stride, int L) {
  ptrdiff_t y0 = (ptrdiff_t)(4 * ty) - (ptrdiff_t)p->pad_h, x0 = (ptrdiff_t)(4 * tx) - (ptrdiff_t)p->pad_w;
  if (rows_in && tx >= xlo && tx + (size_t)L <= xhi) {
    input_run(in + (size_t)y0 * p->w + (size_t)x0, p->w, v, a_stride, L);
    return;
  }
  enum { SW = 4 * WINO43_L + 2 };
  float win[6 * SW];
  ptrdiff_t W = 4 * L + 2, c0 = x0 < 0 ? -x0 : 0, c1 = (ptrdiff_t)p->w - x0 < W ? (ptrdiff_t)p->w - x0 : W;
  for (ptrdiff_t r = 0; r < 6; r++) {
    float *dst = win + r * SW;
    ptrdiff_t y = y0 + r;
    if (y < 0 || y >= (ptrdiff_t)p->h || c1 <= c0) {
      memset(dst, 0, (size_t)W * sizeof *dst);
      continue;
    }
    memset(dst, 0, (size_t)c0 * sizeof *dst);
    memcpy(dst + c0, in + (size_t)y * p->w + (size_t)(x0 + c0), (size_t)(c1 - c0) * sizeof *dst);
    memset(dst + c1, 0, (size_t)(W - c1) * sizeof *dst);
  }
  input_run(win, SW, v, a_stride, L);
}

void WINO_FN(pk_f32_wino43_input)(const pk_wino_plane *p, const float *in, size_t t0, size_t n, float *v,
                                  size_t a_stride) {
  size_t xlo = (p->pad_w + 3) / 4, xhi = p->w + p->pad_w >= 6 ? (p->w + p->pad_w - 6) / 4 + 1 : 0;
#define IN_RANGE                                                         \
  bool rows_in = 4 * ty >= p->pad_h && 4 * ty - p->pad_h + 6 <= p->h; \
  lo = 0;                                                              \
  hi = p->tiles_w
#define IN_RUN(x, lane, L) input_run_at(p, in, ty, x, rows_in, xlo, xhi, v + (lane), a_stride, L)
#define IN_ONE(x, lane) input_tiles(p, in, ty * p->tiles_w + (x), 1, v + (lane), a_stride)
  WINO_ROWS(p, t0, n, WINO43_L, WINO43_LS, IN_RANGE, IN_RUN, IN_ONE);
#undef IN_RANGE
#undef IN_RUN
#undef IN_ONE
}

/* L (WINO43_L or WINO43_LS) tiles from (ty, tx) in one row, their outputs
 * inside the plane. */
WINO_ALWAYS_INLINE void output_run(const pk_wino_plane *p, const float *m, size_t a_stride, size_t ty, size_t tx,
                                   float bias, float min, float max, float *out, int L) {
  float s[4][6][WINO43_L], y[4][4 * WINO43_L];
  for (int c = 0; c < 6; c++)
    for (int l = 0; l < L; l++) at6(m + (size_t)c * a_stride + l, 6 * a_stride, &s[0][c][l], 6 * WINO43_L);
  for (int i = 0; i < 4; i++)
    for (int l = 0; l < L; l++) {
      float r[4];
      at6(&s[i][0][l], WINO43_L, r, 1);
      for (int e = 0; e < 4; e++) {
        float x = r[e] + bias;
        x = x < min ? min : x;
        y[i][4 * l + e] = x > max ? max : x;
      }
    }
  for (int i = 0; i < 4; i++) {
    float *o = out + (4 * ty + (size_t)i) * p->ow + 4 * tx;
    for (int e = 0; e < 4 * L; e++) o[e] = y[i][e];
  }
}

void WINO_FN(pk_f32_wino43_output)(const pk_wino_plane *p, const float *m, size_t a_stride, size_t t0, size_t n,
                                   float bias, float min, float max, float *out) {
#define OUT_RANGE                          \
  lo = 0;                                  \
  hi = 4 * ty + 4 <= p->oh ? p->ow / 4 : 0
#define OUT_RUN(x, lane, L) output_run(p, m + (lane), a_stride, ty, x, bias, min, max, out, L)
#define OUT_ONE(x, lane) output_tiles(p, m + (lane), a_stride, ty * p->tiles_w + (x), 1, bias, min, max, out)
  WINO_ROWS(p, t0, n, WINO43_L, WINO43_LS, OUT_RANGE, OUT_RUN, OUT_ONE);
#undef OUT_RANGE
#undef OUT_RUN
#undef OUT_ONE
}

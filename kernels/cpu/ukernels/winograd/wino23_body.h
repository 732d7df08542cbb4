/* The body of the Winograd F(2x2, 3x3) input and output transforms,
 * included once per ISA file with WINO_FN(name) naming its functions: the
 * same C compiled with that ISA's flags. Runs of WINO_L (or WINO_LS) tiles
 * inside one tile row and away from the plane's edges go through
 * fixed-length lane loops the compiler vectorizes (the stride-2 patch reads
 * and the interleaved 2x2 writes included); other tiles one at a time. */
#include "cpu/ukernels/winograd/wino_tiles.h"

#define WINO_L 16 /* long runs */
#define WINO_LS 4 /* short runs (rows of few tiles) */

/* Tiles t0 .. t0 + n - 1 one at a time. */
static void input_tiles(const pk_wino_plane *p, const float *in, size_t t0, size_t n, float *v,
                        size_t a_stride) {
  size_t ty = t0 / p->tiles_w, tx = t0 % p->tiles_w;
  for (size_t l = 0; l < n; l++) {
    float d[4][4], t[4][4];
    wino_load_patch(p, in, (ptrdiff_t)(2 * ty) - (ptrdiff_t)p->pad_h, (ptrdiff_t)(2 * tx) - (ptrdiff_t)p->pad_w, 4,
                    &d[0][0]);
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

static void output_tiles(const pk_wino_plane *p, const float *m, size_t a_stride, size_t t0,
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
      o[0] = wino_clampf(s[i][0] + s[i][1] + s[i][2] + bias, min, max);
      if (x + 1 < p->ow) o[1] = wino_clampf(s[i][1] - s[i][2] - s[i][3] + bias, min, max);
    }
    if (++tx == p->tiles_w) {
      tx = 0;
      ty++;
    }
  }
}

/* L (WINO_L or WINO_LS, a constant at each call) tiles from (ty, tx) in one
 * row, their patches inside the plane. */
WINO_ALWAYS_INLINE void input_run(const pk_wino_plane *p, const float *in, size_t ty, size_t tx, float *v,
                                  size_t a_stride, int L) {
  const float *row = in + (2 * ty - p->pad_h) * p->w + 2 * tx - p->pad_w;
  float d[4][4][WINO_L], t[4][4][WINO_L];
  for (int r = 0; r < 4; r++)
    for (int s = 0; s < 4; s++)
      for (int l = 0; l < L; l++) d[r][s][l] = row[r * p->w + 2 * l + s];
  for (int s = 0; s < 4; s++)
    for (int l = 0; l < L; l++) {
      t[0][s][l] = d[0][s][l] - d[2][s][l];
      t[1][s][l] = d[1][s][l] + d[2][s][l];
      t[2][s][l] = d[2][s][l] - d[1][s][l];
      t[3][s][l] = d[1][s][l] - d[3][s][l];
    }
  for (int r = 0; r < 4; r++) {
    float *o0 = v + (size_t)(4 * r) * a_stride, *o1 = o0 + a_stride, *o2 = o1 + a_stride, *o3 = o2 + a_stride;
    for (int l = 0; l < L; l++) {
      o0[l] = t[r][0][l] - t[r][2][l];
      o1[l] = t[r][1][l] + t[r][2][l];
      o2[l] = t[r][2][l] - t[r][1][l];
      o3[l] = t[r][1][l] - t[r][3][l];
    }
  }
}

void WINO_FN(pk_f32_wino23_input)(const pk_wino_plane *p, const float *in, size_t t0, size_t n, float *v,
                                  size_t a_stride) {
  size_t xlo = (p->pad_w + 1) / 2, xhi = p->w + p->pad_w >= 4 ? (p->w + p->pad_w - 4) / 2 + 1 : 0;
#define IN_RANGE                                                                                         \
  bool rows_in = 2 * ty >= p->pad_h && 2 * ty - p->pad_h + 4 <= p->h;                                  \
  lo = rows_in ? xlo : 0;                                                                              \
  hi = rows_in ? xhi : 0
#define IN_RUN(x, lane, L) input_run(p, in, ty, x, v + (lane), a_stride, L)
#define IN_ONE(x, lane) input_tiles(p, in, ty * p->tiles_w + (x), 1, v + (lane), a_stride)
  WINO_ROWS(p, t0, n, WINO_L, WINO_LS, IN_RANGE, IN_RUN, IN_ONE);
#undef IN_RANGE
#undef IN_RUN
#undef IN_ONE
}

/* L (WINO_L or WINO_LS) tiles from (ty, tx) in one row, their outputs
 * inside the plane. */
WINO_ALWAYS_INLINE void output_run(const pk_wino_plane *p, const float *m, size_t a_stride, size_t ty, size_t tx,
                                   float bias, float min, float max, float *out, int L) {
  float s[2][4][WINO_L], y[2][2 * WINO_L];
  for (int c = 0; c < 4; c++) {
    const float *m0 = m + (size_t)c * a_stride, *m1 = m0 + 4 * a_stride, *m2 = m1 + 4 * a_stride,
                *m3 = m2 + 4 * a_stride;
    for (int l = 0; l < L; l++) {
      s[0][c][l] = m0[l] + m1[l] + m2[l];
      s[1][c][l] = m1[l] - m2[l] - m3[l];
    }
  }
  for (int i = 0; i < 2; i++)
    for (int l = 0; l < L; l++) {
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
    for (int e = 0; e < 2 * L; e++) o[e] = y[i][e];
  }
}

void WINO_FN(pk_f32_wino23_output)(const pk_wino_plane *p, const float *m, size_t a_stride, size_t t0, size_t n,
                                   float bias, float min, float max, float *out) {
#define OUT_RANGE                          \
  lo = 0;                                  \
  hi = 2 * ty + 2 <= p->oh ? p->ow / 2 : 0
#define OUT_RUN(x, lane, L) output_run(p, m + (lane), a_stride, ty, x, bias, min, max, out, L)
#define OUT_ONE(x, lane) output_tiles(p, m + (lane), a_stride, ty * p->tiles_w + (x), 1, bias, min, max, out)
  WINO_ROWS(p, t0, n, WINO_L, WINO_LS, OUT_RANGE, OUT_RUN, OUT_ONE);
#undef OUT_RANGE
#undef OUT_RUN
#undef OUT_ONE
}

/* Winograd F(2x2, 3x3) input and output transforms for AVX-512
 * (winograd.h): the lanes of a vector are up to 16 consecutive tiles of one
 * tile row (a run). Input: each of the 4 patch rows of the run's window
 * (4 x 34 floats, read in place when it lies inside the plane, else from a
 * zero-padded copy) gives its 4 patch columns by one two-source permute
 * each (lane l takes column 2l + s), the row transform d B runs on them,
 * then B^T; alpha a = 4r + s is stored for the run's tiles under a mask.
 * Output: A^T m A per run, the two columns of each tile interleaved back
 * into the output rows by permutes, rows and columns past the plane left
 * out by masks. Same arithmetic as the scalar twin (additions only). */
#include <immintrin.h>

#include "cpu/ukernels/winograd/wino_run.h"

#define RUN 16              /* tiles a run */
#define WIN_W (2 * RUN + 2) /* window row: 34 columns */

static __mmask16 first(size_t n) { return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u); }

/* B^T x for the 4 vectors x (in place). */
static inline void bt4(__m512 x[4]) {
  __m512 o0 = _mm512_sub_ps(x[0], x[2]), o1 = _mm512_add_ps(x[1], x[2]);
  __m512 o2 = _mm512_sub_ps(x[2], x[1]), o3 = _mm512_sub_ps(x[1], x[3]);
  x[0] = o0;
  x[1] = o1;
  x[2] = o2;
  x[3] = o3;
}

/* A^T x: the 2 outputs of the 4 vectors x. */
static inline void at4(const __m512 x[4], __m512 o[2]) {
  o[0] = _mm512_add_ps(_mm512_add_ps(x[0], x[1]), x[2]);
  o[1] = _mm512_sub_ps(_mm512_sub_ps(x[1], x[2]), x[3]);
}

/* The run whose window's top-left is row (rows `stride` apart, WIN_W
 * floats readable in each) into v[a * a_stride + lane], lanes under m. */
static void input_run(const float *row, size_t stride, float *v, size_t a_stride, __mmask16 m) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  __m512 u[4][4]; /* u[r][s] = (d B)[r][s] */
  for (int r = 0; r < 4; r++) {
    const float *b = row + (size_t)r * stride;
    __m512 a0 = _mm512_loadu_ps(b), a1 = _mm512_loadu_ps(b + 16);
    __m512 c0 = _mm512_loadu_ps(b + 2), c1 = _mm512_loadu_ps(b + 18);
    u[r][0] = _mm512_permutex2var_ps(a0, even, a1);
    u[r][1] = _mm512_permutex2var_ps(a0, odd, a1);
    u[r][2] = _mm512_permutex2var_ps(c0, even, c1);
    u[r][3] = _mm512_permutex2var_ps(c0, odd, c1);
    bt4(u[r]);
  }
  for (int s = 0; s < 4; s++) {
    __m512 x[4] = {u[0][s], u[1][s], u[2][s], u[3][s]};
    bt4(x);
    for (int r = 0; r < 4; r++) _mm512_mask_storeu_ps(v + (size_t)(4 * r + s) * a_stride, m, x[r]);
  }
}

void pk_f32_wino23_input_avx512(const pk_wino_plane *p, const float *in, size_t t0, size_t n, float *v,
                                size_t a_stride) {
  float win[4 * WIN_W];
  for (size_t l = 0, ty, tx, cnt; l < n; l += cnt) {
    cnt = wino_run_tiles(p, t0, l, n, RUN, &ty, &tx);
    size_t stride;
    const float *row = wino_run_window(p, in, ty, tx, cnt, 2, 4, WIN_W, win, &stride);
    input_run(row, stride, v + l, a_stride, first(cnt));
  }
}

void pk_f32_wino23_output_avx512(const pk_wino_plane *p, const float *m, size_t a_stride, size_t t0, size_t n,
                                 float bias, float min, float max, float *out) {
  const __m512 vb = _mm512_set1_ps(bias), lo = _mm512_set1_ps(min), hi = _mm512_set1_ps(max);
  /* output column 2l + e is lane l of e's vector: the first 8 tiles, then the rest */
  const __m512i ilo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i ihi = _mm512_add_epi32(ilo, _mm512_set1_epi32(8));
  for (size_t l = 0, ty, tx, cnt; l < n; l += cnt) {
    cnt = wino_run_tiles(p, t0, l, n, RUN, &ty, &tx);
    __mmask16 mk = first(cnt);
    __m512 s[2][4]; /* s[i][c] = (A^T m)[i][c] */
    for (int c = 0; c < 4; c++) {
      __m512 x[4], o[2];
      for (int j = 0; j < 4; j++) x[j] = _mm512_maskz_loadu_ps(mk, m + (size_t)(4 * j + c) * a_stride + l);
      at4(x, o);
      s[0][c] = o[0];
      s[1][c] = o[1];
    }
    size_t rows = p->oh - 2 * ty < 2 ? p->oh - 2 * ty : 2, cols = p->ow - 2 * tx < 2 * cnt ? p->ow - 2 * tx : 2 * cnt;
    for (size_t i = 0; i < rows; i++) {
      __m512 e[2];
      at4(s[i], e);
      for (int k = 0; k < 2; k++) e[k] = _mm512_min_ps(hi, _mm512_max_ps(lo, _mm512_add_ps(e[k], vb))); /* NaN kept */
      float *o = out + (2 * ty + i) * p->ow + 2 * tx;
      __m512 y0 = _mm512_permutex2var_ps(e[0], ilo, e[1]), y1 = _mm512_permutex2var_ps(e[0], ihi, e[1]);
      _mm512_mask_storeu_ps(o, first(cols), y0);
      if (cols > 16) _mm512_mask_storeu_ps(o + 16, first(cols - 16), y1);
    }
  }
}

/* Winograd F(4x4, 3x3) input and output transforms for AVX-512
 * (winograd.h): the lanes of a vector are up to 16 consecutive tiles of one
 * tile row (a run). Input: each of the 6 patch rows of the run's window
 * (6 x 66 floats, read in place when it lies inside the plane, else from a
 * zero-padded copy) gives its 6 patch columns by two-source permutes (lane
 * l takes column 4l + s), the row transform d B runs on them, then B^T on
 * the results; alpha a = 6r + s is stored for the run's tiles under a mask.
 * Output: A^T m A per run, the 4 x 4 tiles interleaved back into output
 * rows by unpacks and 128-bit shuffles, rows and columns past the plane
 * left out by masks. Same arithmetic as the scalar twin up to rounding
 * (fused multiply-adds, the two passes in the other order). */
#include <immintrin.h>

#include "cpu/ukernels/winograd/wino_run.h"

#define RUN 16              /* tiles a run */
#define WIN_W (4 * RUN + 4) /* window row: 66 columns read, 68 loaded */

static __mmask16 first(size_t n) { return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u); }

/* B^T x for the 6 vectors x (in place). */
static inline void bt6(__m512 x[6]) {
  const __m512 four = _mm512_set1_ps(4.0f), five = _mm512_set1_ps(5.0f), two = _mm512_set1_ps(2.0f);
  __m512 a = _mm512_fnmadd_ps(four, x[2], x[4]), b = _mm512_fnmadd_ps(four, x[1], x[3]);
  __m512 c = _mm512_sub_ps(x[4], x[2]), e = _mm512_mul_ps(two, _mm512_sub_ps(x[3], x[1]));
  __m512 o0 = _mm512_fmadd_ps(four, x[0], _mm512_fnmadd_ps(five, x[2], x[4]));
  __m512 o5 = _mm512_fmadd_ps(four, x[1], _mm512_fnmadd_ps(five, x[3], x[5]));
  x[0] = o0;
  x[1] = _mm512_add_ps(a, b);
  x[2] = _mm512_sub_ps(a, b);
  x[3] = _mm512_add_ps(c, e);
  x[4] = _mm512_sub_ps(c, e);
  x[5] = o5;
}

/* A^T x: the 4 outputs of the 6 vectors x. */
static inline void at6(const __m512 x[6], __m512 o[4]) {
  const __m512 two = _mm512_set1_ps(2.0f), four = _mm512_set1_ps(4.0f), eight = _mm512_set1_ps(8.0f);
  __m512 s12 = _mm512_add_ps(x[1], x[2]), d12 = _mm512_sub_ps(x[1], x[2]);
  __m512 s34 = _mm512_add_ps(x[3], x[4]), d34 = _mm512_sub_ps(x[3], x[4]);
  o[0] = _mm512_add_ps(_mm512_add_ps(x[0], s12), s34);
  o[1] = _mm512_fmadd_ps(two, d34, d12);
  o[2] = _mm512_fmadd_ps(four, s34, s12);
  o[3] = _mm512_add_ps(_mm512_fmadd_ps(eight, d34, d12), x[5]);
}

/* Lane l = base[4l + s] for the 64 floats in q[0..3] (idx picks 4l + s of
 * a pair of vectors into lanes 0..7). */
static inline __m512 column(const __m512 q[4], __m512i idx) {
  return _mm512_shuffle_f32x4(_mm512_permutex2var_ps(q[0], idx, q[1]), _mm512_permutex2var_ps(q[2], idx, q[3]),
                              0x44);
}

/* The run whose window's top-left is row (rows `stride` apart, WIN_W
 * floats readable in each) into v[a * a_stride + lane], lanes under m. */
static void input_run(const float *row, size_t stride, float *v, size_t a_stride, __mmask16 m) {
  __m512i idx[4];
  for (int s = 0; s < 4; s++)
    idx[s] = _mm512_add_epi32(_mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28),
                              _mm512_set1_epi32(s));
  __m512 u[6][6]; /* u[r][s] = (d B)[r][s] */
  for (int r = 0; r < 6; r++) {
    const float *b = row + (size_t)r * stride;
    __m512 q[4], q4[4];
    for (int k = 0; k < 4; k++) {
      q[k] = _mm512_loadu_ps(b + 16 * k);
      q4[k] = _mm512_loadu_ps(b + 4 + 16 * k);
    }
    u[r][0] = column(q, idx[0]);
    u[r][1] = column(q, idx[1]);
    u[r][2] = column(q, idx[2]);
    u[r][3] = column(q, idx[3]);
    u[r][4] = column(q4, idx[0]);
    u[r][5] = column(q4, idx[1]);
    bt6(u[r]);
  }
  for (int s = 0; s < 6; s++) {
    __m512 x[6];
    for (int r = 0; r < 6; r++) x[r] = u[r][s];
    bt6(x);
    for (int r = 0; r < 6; r++) _mm512_mask_storeu_ps(v + (size_t)(6 * r + s) * a_stride, m, x[r]);
  }
}

void pk_f32_wino43_input_avx512(const pk_wino_plane *p, const float *in, size_t t0, size_t n, float *v,
                                size_t a_stride) {
  float win[6 * WIN_W];
  for (size_t l = 0, ty, tx, cnt; l < n; l += cnt) {
    cnt = wino_run_tiles(p, t0, l, n, RUN, &ty, &tx);
    size_t stride;
    const float *row = wino_run_window(p, in, ty, tx, cnt, 4, 6, WIN_W, win, &stride);
    input_run(row, stride, v + l, a_stride, first(cnt));
  }
}

/* Output row o, 4 * cnt columns of which `cols` are kept, from the 4
 * vectors e[0..3] (lane l: column 4l + k of the row is e[k][l]). */
static void store_row(float *o, const __m512 e[4], size_t cols) {
  __m512 t0 = _mm512_unpacklo_ps(e[0], e[1]), t1 = _mm512_unpackhi_ps(e[0], e[1]);
  __m512 t2 = _mm512_unpacklo_ps(e[2], e[3]), t3 = _mm512_unpackhi_ps(e[2], e[3]);
  __m512 u0 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
  __m512 u1 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
  __m512 u2 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
  __m512 u3 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
  /* u_k's 128-bit lane g holds tile 4g + k: transpose the 128-bit lanes */
  __m512 w0 = _mm512_shuffle_f32x4(u0, u1, 0x44), w1 = _mm512_shuffle_f32x4(u2, u3, 0x44);
  __m512 w2 = _mm512_shuffle_f32x4(u0, u1, 0xee), w3 = _mm512_shuffle_f32x4(u2, u3, 0xee);
  __m512 y[4] = {_mm512_shuffle_f32x4(w0, w1, 0x88), _mm512_shuffle_f32x4(w0, w1, 0xdd),
                 _mm512_shuffle_f32x4(w2, w3, 0x88), _mm512_shuffle_f32x4(w2, w3, 0xdd)};
  for (size_t q = 0; q < 4 && 16 * q < cols; q++) {
    size_t k = cols - 16 * q;
    if (k >= 16)
      _mm512_storeu_ps(o + 16 * q, y[q]);
    else
      _mm512_mask_storeu_ps(o + 16 * q, first(k), y[q]);
  }
}

void pk_f32_wino43_output_avx512(const pk_wino_plane *p, const float *m, size_t a_stride, size_t t0, size_t n,
                                 float bias, float min, float max, float *out) {
  const __m512 vb = _mm512_set1_ps(bias), lo = _mm512_set1_ps(min), hi = _mm512_set1_ps(max);
  for (size_t l = 0, ty, tx, cnt; l < n; l += cnt) {
    cnt = wino_run_tiles(p, t0, l, n, RUN, &ty, &tx);
    __mmask16 mk = first(cnt);
    __m512 s[4][6]; /* s[i][c] = (A^T m)[i][c] */
    for (int c = 0; c < 6; c++) {
      __m512 x[6], o[4];
      for (int j = 0; j < 6; j++) x[j] = _mm512_maskz_loadu_ps(mk, m + (size_t)(6 * j + c) * a_stride + l);
      at6(x, o);
      for (int i = 0; i < 4; i++) s[i][c] = o[i];
    }
    size_t rows = p->oh - 4 * ty < 4 ? p->oh - 4 * ty : 4, cols = p->ow - 4 * tx < 4 * cnt ? p->ow - 4 * tx : 4 * cnt;
    for (size_t i = 0; i < rows; i++) {
      __m512 e[4];
      at6(s[i], e);
      for (int k = 0; k < 4; k++) e[k] = _mm512_min_ps(hi, _mm512_max_ps(lo, _mm512_add_ps(e[k], vb))); /* NaN kept */
      store_row(out + (4 * ty + i) * p->ow + 4 * tx, e, cols);
    }
  }
}

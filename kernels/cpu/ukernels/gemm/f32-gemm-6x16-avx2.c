/* f32 GEMM micro-kernel, AVX2 + FMA, 6×16 tile: 12 ymm accumulators (6 rows
 * × 2 vectors of 8 columns) + 2 for B + 1 broadcast of A, within the 16
 * registers. Partial tiles use maskload/maskstore and row guards; a streamed
 * tile (t->stream) stores its full, aligned rows non-temporally. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu/gemm_ukernel.h"

enum { MR = 6, NV = 2, NR = 8 * NV };

static __m256i column_mask(size_t nr, size_t v) {
  int left = nr > 8 * v ? (int)(nr - 8 * v) : 0;
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(left), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

void pk_f32_gemm_6x16_avx2(const pk_gemm_f32_tile *t) {
  __m256 acc[MR][NV];
#pragma GCC unroll 8
  for (int i = 0; i < MR; i++)
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) acc[i][v] = _mm256_setzero_ps();
  if (t->load_c) /* C comes back from a previous k block, likely out of cache: overlap its load */
    for (size_t i = 0; i < t->mr; i++) _mm_prefetch((const char *)(t->c + i * t->ldc), _MM_HINT_T0);
  const float *a = t->a, *b = t->b;
  for (size_t k = 0; k < t->kc; k++, a += MR, b += t->b_stride) {
    __m256 bv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) bv[v] = _mm256_loadu_ps(b + 8 * v);
#pragma GCC unroll 8
    for (int i = 0; i < MR; i++) {
      __m256 ai = _mm256_broadcast_ss(a + i);
#pragma GCC unroll 4
      for (int v = 0; v < NV; v++) acc[i][v] = _mm256_fmadd_ps(ai, bv[v], acc[i][v]);
    }
  }
  __m256i mask[NV];
  __m256 bias_n[NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; v++) {
    mask[v] = column_mask(t->nr, (size_t)v);
    bias_n[v] = t->bias_n && !t->load_c ? _mm256_maskload_ps(t->bias_n + 8 * v, mask[v]) : _mm256_setzero_ps();
  }
  const int full = t->nr == NR;
  const bool nt = full && t->stream && !((uintptr_t)t->c & 31) && t->ldc % 8 == 0; /* every row's vectors aligned */
  const __m256 lo = _mm256_set1_ps(t->min), hi = _mm256_set1_ps(t->max);
#pragma GCC unroll 8
  for (int i = 0; i < MR; i++) {
    if ((size_t)i >= t->mr) break;
    float *c = t->c + (size_t)i * t->ldc;
    __m256 bm = _mm256_set1_ps(t->bias_m && !t->load_c ? t->bias_m[i] : 0.0f);
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) {
      __m256 x;
      if (t->load_c)
        x = _mm256_add_ps(acc[i][v], full ? _mm256_loadu_ps(c + 8 * v) : _mm256_maskload_ps(c + 8 * v, mask[v]));
      else
        x = _mm256_add_ps(acc[i][v], _mm256_add_ps(bm, bias_n[v]));
      if (t->clamp) x = _mm256_min_ps(hi, _mm256_max_ps(lo, x));
      if (nt)
        _mm256_stream_ps(c + 8 * v, x);
      else if (full)
        _mm256_storeu_ps(c + 8 * v, x);
      else
        _mm256_maskstore_ps(c + 8 * v, mask[v], x);
    }
  }
}

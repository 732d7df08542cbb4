/* f32 GEMM micro-kernel, AVX-512F, 14×32 tile: 28 zmm accumulators (14 rows
 * × 2 vectors of 16 columns) + 2 for B, one broadcast of A folded into each
 * FMA, so both FMA pipes stay fed from 2 vector loads and 14 broadcasts per
 * step of k. Partial tiles use column masks; a tile of fewer rows runs a copy
 * of the loop for exactly that many (a skinny product, M = 2..8 tokens, then
 * costs its own rows' FMAs, not 14 rows'), and a tile of at most 16 columns
 * one for the first vector only (the last panel of a product whose width
 * leaves 16 or fewer columns costs half the FMAs). B is read in place too
 * (b_stride apart): a partial panel there runs a copy of the loop whose B
 * loads are masked to the tile's columns (masked loads throughout cost the
 * full panels up to a third on MobileNetV2's 7x7 layers). A streamed tile
 * (t->stream) stores its full vectors non-temporally when C's rows are
 * 64-byte aligned. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/gemm_ukernel.h"

enum { MR = 14, NV = 2, NR = 16 * NV, SKINNY = 8, PF_AHEAD = 16 };

static __mmask16 column_mask(size_t nr, size_t v) {
  size_t left = nr > 16 * v ? nr - 16 * v : 0;
  return left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1u);
}

/* One step of k for the first rows rows and nv vectors: acc += a[i] * b
 * (when masked, b's columns under bm only). */
static inline __attribute__((always_inline)) void step(const float *a, const float *b, size_t bs,
                                                       const __mmask16 *bm, __m512 acc[MR][NV], const int rows,
                                                       const int nv, const bool masked) {
  __m512 bv[NV];
  if (rows <= SKINNY) { /* few rows: B streams from memory */
    _mm_prefetch((const char *)(b + PF_AHEAD * bs), _MM_HINT_T0);
    _mm_prefetch((const char *)(b + PF_AHEAD * bs + 16), _MM_HINT_T0);
  }
#pragma GCC unroll 4
  for (int v = 0; v < nv; v++) bv[v] = masked ? _mm512_maskz_loadu_ps(bm[v], b + 16 * v) : _mm512_loadu_ps(b + 16 * v);
#pragma GCC unroll 16
  for (int i = 0; i < rows; i++) {
    __m512 ai = _mm512_set1_ps(a[i]);
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++) acc[i][v] = _mm512_fmadd_ps(ai, bv[v], acc[i][v]);
  }
}

static inline __attribute__((always_inline)) void zero(__m512 acc[MR][NV], const int rows, const int nv) {
#pragma GCC unroll 16
  for (int i = 0; i < rows; i++)
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++) acc[i][v] = _mm512_setzero_ps();
}

/* The tile for rows = 1 .. MR and nv = 1 or 2 vectors (nr <= 16 * nv),
 * inlined with the constants. */
static inline __attribute__((always_inline)) void tile(const pk_gemm_f32_tile *t, const int rows, const int nv,
                                                       const bool masked) {
  __m512 acc[MR][NV];
  zero(acc, rows, nv);
  if (t->load_c) /* C comes back from a previous k block, likely out of cache: overlap its load */
    for (size_t i = 0; i < t->mr; i++) {
      _mm_prefetch((const char *)(t->c + i * t->ldc), _MM_HINT_T0);
      _mm_prefetch((const char *)(t->c + i * t->ldc + 16), _MM_HINT_T0);
    }
  const float *a = t->a, *b = t->b;
  const size_t bs = t->b_stride;
  __mmask16 mask[NV];
#pragma GCC unroll 4
  for (int v = 0; v < nv; v++) mask[v] = column_mask(t->nr, (size_t)v);
  size_t k = 0;
  if (rows < 4) { /* under 8 accumulators cannot cover the FMA latency: two sets, even and odd k */
    __m512 odd[MR][NV];
    zero(odd, rows, nv);
    for (; k + 2 <= t->kc; k += 2, a += 2 * MR, b += 2 * bs) {
      step(a, b, bs, mask, acc, rows, nv, masked);
      step(a + MR, b + bs, bs, mask, odd, rows, nv, masked);
    }
#pragma GCC unroll 4
    for (int i = 0; i < rows; i++)
#pragma GCC unroll 4
      for (int v = 0; v < nv; v++) acc[i][v] = _mm512_add_ps(acc[i][v], odd[i][v]);
  }
  for (; k < t->kc; k++, a += MR, b += bs) step(a, b, bs, mask, acc, rows, nv, masked);
  __m512 bias_n[NV];
#pragma GCC unroll 4
  for (int v = 0; v < nv; v++) {
    bias_n[v] = t->bias_n && !t->load_c ? _mm512_maskz_loadu_ps(mask[v], t->bias_n + 16 * v)
                                        : _mm512_setzero_ps();
  }
  const __m512 lo = _mm512_set1_ps(t->min), hi = _mm512_set1_ps(t->max);
  const bool nt = t->stream && !((uintptr_t)t->c & 63) && t->ldc % 16 == 0; /* every row's vectors aligned */
#pragma GCC unroll 16
  for (int i = 0; i < rows; i++) {
    float *c = t->c + (size_t)i * t->ldc;
    __m512 bm = _mm512_set1_ps(t->bias_m && !t->load_c ? t->bias_m[i] : 0.0f);
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++) {
      __m512 x = t->load_c ? _mm512_add_ps(acc[i][v], _mm512_maskz_loadu_ps(mask[v], c + 16 * v))
                           : _mm512_add_ps(acc[i][v], _mm512_add_ps(bm, bias_n[v]));
      if (t->clamp) x = _mm512_min_ps(hi, _mm512_max_ps(lo, x));
      if (nt && t->nr >= 16 * (size_t)(v + 1))
        _mm512_stream_ps(c + 16 * v, x);
      else
        _mm512_mask_storeu_ps(c + 16 * v, mask[v], x);
    }
  }
}

/* The tile for nv vectors, rows a constant. */
static inline __attribute__((always_inline)) void tile_rows(const pk_gemm_f32_tile *t, const int nv, const bool masked) {
  switch (t->mr) {
    case 1: tile(t, 1, nv, masked); break;
    case 2: tile(t, 2, nv, masked); break;
    case 3: tile(t, 3, nv, masked); break;
    case 4: tile(t, 4, nv, masked); break;
    case 5: tile(t, 5, nv, masked); break;
    case 6: tile(t, 6, nv, masked); break;
    case 7: tile(t, 7, nv, masked); break;
    case 8: tile(t, 8, nv, masked); break;
    case 9: tile(t, 9, nv, masked); break;
    case 10: tile(t, 10, nv, masked); break;
    case 11: tile(t, 11, nv, masked); break;
    case 12: tile(t, 12, nv, masked); break;
    case 13: tile(t, 13, nv, masked); break;
    default: tile(t, MR, nv, masked); break;
  }
}

/* Masked B loads only where B is in place and the tile's columns end short
 * of the vectors read (packed panels are zero past nr). */
void pk_f32_gemm_14x32_avx512(const pk_gemm_f32_tile *t) {
  const bool in_place = t->b_in_place;
  if (t->nr <= 16) {
    if (in_place && t->nr < 16)
      tile_rows(t, 1, true);
    else
      tile_rows(t, 1, false);
  } else if (in_place && t->nr < NR) {
    tile_rows(t, NV, true);
  } else {
    tile_rows(t, NV, false);
  }
}

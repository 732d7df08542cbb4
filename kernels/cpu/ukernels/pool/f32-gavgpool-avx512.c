/* f32 global average pool (the mean of a plane), AVX-512 (see pool.h). */
#include <immintrin.h>

#include "cpu/ukernels/pool/pool.h"

float pk_f32_gavgpool_avx512(const float *x, size_t n) {
  __m512 a = _mm512_setzero_ps(), b = _mm512_setzero_ps();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a = _mm512_add_ps(a, _mm512_loadu_ps(x + i));
    b = _mm512_add_ps(b, _mm512_loadu_ps(x + i + 16));
  }
  for (; i < n; i += 16) {
    __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1u);
    a = _mm512_add_ps(a, _mm512_maskz_loadu_ps(m, x + i));
  }
  return _mm512_reduce_add_ps(_mm512_add_ps(a, b)) / (float)n;
}

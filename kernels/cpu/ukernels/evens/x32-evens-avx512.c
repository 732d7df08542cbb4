/* Every second 32-bit element, AVX-512 (see evens.h): 16 a step from two
 * loads and one vpermt2ps; a row's last step's loads are masked to its
 * element 2n - 2. */
#include <immintrin.h>

#include "cpu/ukernels/evens/evens.h"

void pk_x32_evens_avx512(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  for (size_t r = 0; r < rows; r++) {
    const int32_t *s = (const int32_t *)src + r;
    int32_t *d = (int32_t *)dst + r * dst_stride;
    size_t i = 0;
    for (; i + 16 < n; i += 16) { /* s[2i + 31] <= s[2n - 3]: inside */
      __m512i a = _mm512_loadu_si512(s + 2 * i), b = _mm512_loadu_si512(s + 2 * i + 16);
      _mm512_storeu_si512(d + i, _mm512_permutex2var_epi32(a, even, b));
    }
    if (i < n) { /* 1..16 left: s[2i .. 2n - 2], 2(n - i) - 1 elements */
      size_t left = 2 * (n - i) - 1;
      __mmask16 ma = (__mmask16)(left >= 16 ? 0xffffu : (1u << left) - 1u);
      __mmask16 mb = (__mmask16)(left > 16 ? (1u << (left - 16)) - 1u : 0u);
      __m512i a = _mm512_maskz_loadu_epi32(ma, s + 2 * i), b = _mm512_maskz_loadu_epi32(mb, s + 2 * i + 16);
      _mm512_mask_storeu_epi32(d + i, (__mmask16)((1u << (n - i)) - 1u), _mm512_permutex2var_epi32(a, even, b));
    }
  }
}

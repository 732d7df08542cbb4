/* Every second 32-bit element, AVX2 (see evens.h): 8 a step from two loads,
 * one vshufps (the even lanes of each 128-bit half of both) and one vpermpd
 * putting the halves in order; a row's last steps scalar. */
#include <immintrin.h>

#include "cpu/ukernels/evens/evens.h"

void pk_x32_evens_avx2(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride) {
  for (size_t r = 0; r < rows; r++) {
    const float *s = (const float *)src + r;
    float *d = (float *)dst + r * dst_stride;
    size_t i = 0;
    for (; i + 8 < n; i += 8) { /* s[2i + 15] <= s[2n - 3]: inside */
      __m256 a = _mm256_loadu_ps(s + 2 * i), b = _mm256_loadu_ps(s + 2 * i + 8);
      __m256 e = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)); /* a0 a2 b0 b2 | a4 a6 b4 b6 */
      _mm256_storeu_ps(d + i, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), _MM_SHUFFLE(3, 1, 2, 0))));
    }
    pk_x32_evens_scalar(s + 2 * i, n - i, 1, d + i, 0);
  }
}

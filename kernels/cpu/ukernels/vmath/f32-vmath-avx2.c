/* float32 vector math, AVX2 + FMA (8 lanes): the shared algorithms of
 * f32-vmath-simd.h over 256-bit vectors. */
#include <immintrin.h>

typedef __m256 VF;
typedef __m256 VM;
#define W 8
#define DUP(x) _mm256_set1_ps(x)
#define LD(p) _mm256_loadu_ps(p)
#define ST(p, v) _mm256_storeu_ps(p, v)
#define ADD(a, b) _mm256_add_ps(a, b)
#define SUB(a, b) _mm256_sub_ps(a, b)
#define MUL(a, b) _mm256_mul_ps(a, b)
#define DIV(a, b) _mm256_div_ps(a, b)
#define FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define FMA_EXACT(a, b, c) FMA(a, b, c)
#define MAX(a, b) _mm256_max_ps(a, b)
#define MIN(a, b) _mm256_min_ps(a, b)
#define SQRT(a) _mm256_sqrt_ps(a)
#define RNDN(a) _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define POW2(n)                                                                           \
  _mm256_castsi256_ps(                                                                    \
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23))
#define AND(a, b) _mm256_and_ps(a, b)
#define OR(a, b) _mm256_or_ps(a, b)
#define XOR(a, b) _mm256_xor_ps(a, b)
#define LT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define ISNAN(a) _mm256_cmp_ps(a, a, _CMP_UNORD_Q)
#define MOR(a, b) _mm256_or_ps(a, b)
#define MANY(m) (_mm256_movemask_ps(m) != 0)
#define SEL(m, a, b) _mm256_blendv_ps(a, b, m)

static inline float HSUM(VF v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}
static inline float HMAX(VF v) {
  __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_max_ps(s, _mm_movehl_ps(s, s));
  s = _mm_max_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}

#include "cpu/ukernels/vmath/f32-vmath-simd.h"

VM_TABLE(pk_vmath_f32_avx2)

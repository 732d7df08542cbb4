/* float32 vector math, AVX-512 F/DQ (16 lanes, mask registers): the shared
 * algorithms of f32-vmath-simd.h over 512-bit vectors. */
#include <immintrin.h>

typedef __m512 VF;
typedef __mmask16 VM;
#define W 16
#define DUP(x) _mm512_set1_ps(x)
#define LD(p) _mm512_loadu_ps(p)
#define ST(p, v) _mm512_storeu_ps(p, v)
#define ADD(a, b) _mm512_add_ps(a, b)
#define SUB(a, b) _mm512_sub_ps(a, b)
#define MUL(a, b) _mm512_mul_ps(a, b)
#define DIV(a, b) _mm512_div_ps(a, b)
#define FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define FMA_EXACT(a, b, c) FMA(a, b, c)
#define MAX(a, b) _mm512_max_ps(a, b)
#define MIN(a, b) _mm512_min_ps(a, b)
#define SQRT(a) _mm512_sqrt_ps(a)
#define RNDN(a) _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define POW2(n)                                                                           \
  _mm512_castsi512_ps(                                                                    \
      _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23))
#define AND(a, b) _mm512_and_ps(a, b)
#define OR(a, b) _mm512_or_ps(a, b)
#define XOR(a, b) _mm512_xor_ps(a, b)
#define LT(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)
#define ISNAN(a) _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q)
#define MOR(a, b) ((VM)((a) | (b)))
#define MANY(m) ((m) != 0)
#define SEL(m, a, b) _mm512_mask_blend_ps(m, a, b)
#define HSUM(v) _mm512_reduce_add_ps(v)
#define HMAX(v) _mm512_reduce_max_ps(v)

#include "cpu/ukernels/vmath/f32-vmath-simd.h"

VM_TABLE(pk_vmath_f32_avx512)

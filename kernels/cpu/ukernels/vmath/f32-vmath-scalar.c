/* float32 vector math, scalar twin (one lane, any CPU): the shared algorithms
 * of f32-vmath-simd.h in plain C, for CPUs without a vector variant and as the
 * reference the vector variants are compared with. FMA is a multiply and an add
 * (the range reductions are exact without fusion) except where the algorithm
 * needs an exact product (fmaf). */
#include <math.h>

typedef float VF;
typedef int VM;
#define W 1
#define DUP(x) ((float)(x))
#define LD(p) (*(p))
#define ST(p, v) (*(p) = (v))
#define ADD(a, b) ((a) + (b))
#define SUB(a, b) ((a) - (b))
#define MUL(a, b) ((a) * (b))
#define DIV(a, b) ((a) / (b))
#define FMA(a, b, c) vm_madd(a, b, c)
#define FMA_EXACT(a, b, c) fmaf(a, b, c)
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define SQRT(a) sqrtf(a)
#define RNDN(a) vm_rndn(a)
#define POW2(n) vm_pow2(n)
#define AND(a, b) vm_bits(a, b, 0)
#define OR(a, b) vm_bits(a, b, 1)
#define XOR(a, b) vm_bits(a, b, 2)
#define LT(a, b) ((a) < (b))
#define ISNAN(a) ((a) != (a))
#define MOR(a, b) ((a) || (b))
#define MANY(m) (m)
#define SEL(m, a, b) ((m) ? (b) : (a))
#define HSUM(v) (v)
#define HMAX(v) (v)

#include <stdint.h>
#include <string.h>

static inline float vm_madd(float a, float b, float c) {
  float p = a * b; /* separate statements: no contraction */
  return p + c;
}
/* Round to nearest even for |a| < 2^22 (the range reductions' n). */
static inline float vm_rndn(float a) {
  float t = a + 12582912.0f; /* 1.5 * 2^23 */
  return t - 12582912.0f;
}
static inline float vm_pow2(float n) {
  uint32_t u = (uint32_t)((int32_t)n + 127) << 23;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline float vm_bits(float a, float b, int op) {
  uint32_t x, y;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  x = op == 0 ? x & y : op == 1 ? x | y : x ^ y;
  memcpy(&a, &x, sizeof a);
  return a;
}

#include "cpu/ukernels/vmath/f32-vmath-simd.h"

VM_TABLE(pk_vmath_f32_scalar)

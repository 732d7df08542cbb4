/* float32 vector math, AArch64 AdvSIMD (4 lanes): the shared algorithms of
 * f32-vmath-simd.h over 128-bit vectors. */
#include <arm_neon.h>

typedef float32x4_t VF;
typedef uint32x4_t VM;
#define W 4
#define DUP(x) vdupq_n_f32(x)
#define LD(p) vld1q_f32(p)
#define ST(p, v) vst1q_f32(p, v)
#define ADD(a, b) vaddq_f32(a, b)
#define SUB(a, b) vsubq_f32(a, b)
#define MUL(a, b) vmulq_f32(a, b)
#define DIV(a, b) vdivq_f32(a, b)
#define FMA(a, b, c) vfmaq_f32(c, a, b)
#define FMA_EXACT(a, b, c) FMA(a, b, c)
#define MAX(a, b) vmaxq_f32(a, b)
#define MIN(a, b) vminq_f32(a, b)
#define SQRT(a) vsqrtq_f32(a)
#define RNDN(a) vrndnq_f32(a)
#define POW2(n) \
  vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(vcvtnq_s32_f32(n), vdupq_n_s32(127)), 23))
#define VM_BITS(op, a, b) \
  vreinterpretq_f32_u32(op(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)))
#define AND(a, b) VM_BITS(vandq_u32, a, b)
#define OR(a, b) VM_BITS(vorrq_u32, a, b)
#define XOR(a, b) VM_BITS(veorq_u32, a, b)
#define LT(a, b) vcltq_f32(a, b)
#define ISNAN(a) vmvnq_u32(vceqq_f32(a, a))
#define MOR(a, b) vorrq_u32(a, b)
#define MANY(m) (vmaxvq_u32(m) != 0)
#define SEL(m, a, b) vbslq_f32(m, b, a)
#define HSUM(v) vaddvq_f32(v)
#define HMAX(v) vmaxvq_f32(v)

#include "cpu/ukernels/vmath/f32-vmath-simd.h"

VM_TABLE(pk_vmath_f32_neon)

/* Vector math over contiguous float32 runs: the loops the elementwise,
 * softmax, normalization and reduction fast paths hand their rows to. One
 * table per instruction set (kernels/cpu/ukernels/vmath/f32-vmath-<isa>.c);
 * pk_vmath_f32() returns the one for the selected ISA (cpu/isa.h).
 *
 * Accuracy against libm in double (tests/unit/test_vmath.c: a dense sweep of
 * [-120, 120] and [-6, 6], random bit patterns, NaN, +-inf, -0.0, denormals,
 * the overflow/underflow thresholds; every ISA forced in turn, the scalar twin
 * included, which runs the same algorithms one lane at a time):
 *   exp        <= 1 ulp (0.93 measured); +inf above 88.72, gradual underflow
 *   tanh       <= 2 ulp (1.74); expm1-based, exact sign and -0.0
 *   sigmoid    <= 2 ulp (1.77); exp(-|x|) then one division, no cancellation
 *   rsqrt      <= 1.5 ulp (1.41); a correctly rounded sqrt, then a division
 *   gelu_tanh  <= 12 ulp for x >= -3 (8.3, scalar 10.0), x * sigmoid(2u): no cancellation
 *   gelu_erf   <= 10 ulp for x >= -3 (9.0), x * Phi(x) with erfc in the tails
 *     below x = -3 both lose ~x^2 ulps to the rounding of their argument (as
 *     float libm code does); they stay within 2e-5 relative there, the
 *     conformance suite's float tolerance for transcendental ops.
 *   add sub mul div neg relu clamp max chan_affine axpy: exact (bit for bit the portable results)
 *   sum, dot, softmax, log_softmax: float accumulation in vector lanes (reordered),
 *     within 1e-5 relative of double.
 * NaN propagates through every function; relu gives +0 for -0.0 (portable). */
#ifndef PK_CPU_VMATH_H
#define PK_CPU_VMATH_H

#include <stddef.h>

#include "core/core.h"

/* y[i] = f(x[i]) for i < n; x == y is allowed. */
typedef void (*pk_vunary_f32)(size_t n, const float *x, float *y);
/* y[i] = f(a[i], b[i]) where a and b advance unless scalar: mode 0 both runs,
 * PK_VB_SCALAR_B b[0] for every i, PK_VB_SCALAR_A a[0] for every i. */
typedef void (*pk_vbinary_f32)(size_t n, const float *a, const float *b, float *y);

enum { PK_VB_ADD, PK_VB_SUB, PK_VB_MUL, PK_VB_DIV, PK_VB_COUNT };
enum { PK_VB_RUNS = 0, PK_VB_SCALAR_B = 1, PK_VB_SCALAR_A = 2, PK_VB_MODES = 3 };

enum {
  PK_VU_EXP, PK_VU_TANH, PK_VU_SIGMOID, PK_VU_GELU_ERF, PK_VU_GELU_TANH, PK_VU_RSQRT,
  PK_VU_RELU, PK_VU_NEG, PK_VU_COUNT
};

typedef struct pk_vmath_f32_table {
  pk_vunary_f32 unary[PK_VU_COUNT];
  /* y = min(max(x, lo), hi) keeping NaN (lo may be -inf, hi +inf). */
  void (*clamp)(size_t n, const float *x, float lo, float hi, float *y);
  pk_vbinary_f32 binary[PK_VB_COUNT][PK_VB_MODES];
  float (*sum)(size_t n, const float *x);
  /* sum of x[i] * y[i], each product rounded, the sum reordered in lanes as sum's. */
  float (*dot)(size_t n, const float *x, const float *y);
  /* y[i] = y[i] + a * x[i], the product rounded then added (no FMA): bit for
   * bit a mul then an add. */
  void (*axpy)(size_t n, float a, const float *x, float *y);
  /* The largest element, NaN if any is NaN, -inf for n == 0. */
  float (*max)(size_t n, const float *x);
  /* y = exp(x - max) / sum, and y = x - max - log(sum) (n >= 1). */
  void (*softmax)(size_t n, const float *x, float *y);
  void (*log_softmax)(size_t n, const float *x, float *y);
  /* y = ((x - mean) * rstd) * w + b, each product rounded (no FMA), as the
   * portable layer norm; w and b may be NULL (1 and 0). */
  void (*norm_apply)(size_t n, const float *x, float mean, float rstd, const float *w,
                     const float *b, float *y);
  /* y = ((x - m) * r) * w + b, each step rounded (no FMA), as the portable
   * batch norm: chan_affine with one channel's scalars (a contiguous NCHW
   * plane), chan_affine_v with per-element ones (a channels-last pixel). */
  void (*chan_affine)(size_t n, const float *x, float m, float r, float w, float b, float *y);
  void (*chan_affine_v)(size_t n, const float *x, const float *m, const float *r, const float *w,
                        const float *b, float *y);
} pk_vmath_f32_table;

/* The table of the ISA selected now (cpu/isa.h). */
PT_FUNC const pk_vmath_f32_table *pk_vmath_f32(void);

extern PT_FUNC const pk_vmath_f32_table pk_vmath_f32_scalar;
#if defined(__x86_64__) && defined(__GNUC__)
extern PT_FUNC const pk_vmath_f32_table pk_vmath_f32_avx2;
extern PT_FUNC const pk_vmath_f32_table pk_vmath_f32_avx512;
#endif
#if defined(__aarch64__)
extern PT_FUNC const pk_vmath_f32_table pk_vmath_f32_neon;
#endif

#endif

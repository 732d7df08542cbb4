/* The f32 GEMM route (kernels/cpu/gemm.h) for mm / addmm / bmm / linear.
 *
 * Prepare packs a constant right-hand operand B [K, N] once and declares the
 * workspace the run will take; the run uses the packed B when the shapes and
 * data still match what was prepared, packs both operands on the fly
 * otherwise, and reports false (the caller takes the portable path) when the
 * tensors are not float32 with usable strides or the workspace is missing. */
#ifndef PK_MATMUL_FAST_H
#define PK_MATMUL_FAST_H

#include <stdbool.h>

#include "cpu/gemm.h"
#include "portable/util/iter.h"

/* A float32 matrix as a GEMM operand: element (r, c) at ptr[r*s_r + c*s_c]. */
typedef struct pk_mm_view {
  float *ptr;
  size_t rows, cols, s_r, s_c;
} pk_mm_view;

/* The prepared state: B packed from src (K×N). */
typedef struct pk_mm_state {
  const void *packed;
  const void *src;
  size_t K, N;
} pk_mm_state;

/* t (rank >= 1) as [prod(sizes[..-1]), sizes[-1]] when it is float32 with
 * non-negative strides and its leading dimensions collapse to one stride. */
PT_FUNC bool pk_mm_view_rows(const ptera_tensor *t, pk_mm_view *v);
/* t (rank 2, float32, non-negative strides) transposed. */
PT_FUNC bool pk_mm_view_t(const ptera_tensor *t, pk_mm_view *v);
/* args[i] when it is a tensor, else NULL (prepare sees unchecked args). */
PT_FUNC const ptera_tensor *pk_mm_arg(ptera_value **args, size_t nargs, size_t i);
/* A constant tensor with a static shape and data (worth packing). */
PT_FUNC bool pk_mm_const(const ptera_tensor *t);
/* A per-column bias of n floats from t (shape [n] or [1, n], unit stride), or NULL. */
PT_FUNC const float *pk_mm_bias_n(const ptera_tensor *t, size_t n);

/* Packs b (K×N) when it is constant (b_const), declares the workspace of an
 * M×N×K product for the method's threads and sets the state. */
PT_FUNC ptera_status pk_mm_prepare(ptera_kernel_prepare_ctx *ctx, size_t M, const pk_mm_view *b,
                                   bool b_const);

/* c = a·b (+ bias_n) through the GEMM; c must have unit column stride.
 * *ws: NULL to take the workspace from temp (set on return), or the one an
 * earlier call with the same shapes took (bmm's batches). False when it
 * cannot run (the caller falls back). */
PT_FUNC bool pk_mm_run(ptera_kernel_ctx *ctx, const pk_mm_view *a, const pk_mm_view *b,
                       const float *bias_n, const pk_mm_view *c, void **ws);

#endif

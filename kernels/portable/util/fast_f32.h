/* float32 fast paths of the portable kernels: the row-based drivers. Each
 * walks its operands with pk_iter_rows and hands every contiguous run (or a
 * run against a broadcast scalar) to the vector loops of cpu/vmath.h for the
 * ISA selected at run time, splitting the rows over the method's threads
 * (ptera_kernel_parallel_for). Each returns true when it did the work, with
 * the portable kernel's results (bit for bit for the exact ops, within
 * vmath.h's accuracy for the others), and false when the caller must run its
 * portable loop: another dtype, or a layout whose runs are not contiguous.
 * Arguments are already validated and out already resized. */
#ifndef PK_FAST_F32_H
#define PK_FAST_F32_H

#include "portable/util/iter.h"

/* Tests: false makes every kernel run its portable loop (not thread-safe;
 * set it before running kernels, as pk_isa_force). On by default. */
PT_FUNC void pk_fast_f32_enable(bool on);
PT_FUNC bool pk_fast_f32_on(void);

/* out = a (vop: PK_VB_ADD...) b with common dtype Float and out Float; a or b
 * may be a 0-d tensor of any real dtype (read as float, as the portable loop). */
PT_FUNC bool pk_fast_binary_f32(ptera_kernel_ctx *ctx, int vop, const ptera_tensor *a,
                                const ptera_tensor *b, ptera_tensor *out, int common);
/* out = f(in) (vu: PK_VU_EXP...), both Float. */
PT_FUNC bool pk_fast_unary_f32(ptera_kernel_ctx *ctx, int vu, const ptera_tensor *in,
                               ptera_tensor *out);
/* out = clamp(in, lo, hi) keeping NaN, both Float. */
PT_FUNC bool pk_fast_clamp_f32(ptera_kernel_ctx *ctx, const ptera_tensor *in, float lo, float hi,
                               ptera_tensor *out);
/* (log_)softmax along rows: it walks the rows (operand 0 out, 1 in) whose
 * len elements are contiguous in both; in and out Float. */
PT_FUNC bool pk_fast_softmax_rows(ptera_kernel_ctx *ctx, const pk_iter *it, size_t len,
                                  const ptera_tensor *in, ptera_tensor *out, bool log_);
/* Layer norm of M row-major rows of K > 0 floats: mean[g] and rstd[g]
 * (double, as the portable kernel) and out; w and b (K floats) may be NULL. */
PT_FUNC bool pk_fast_layer_norm_f32(ptera_kernel_ctx *ctx, const float *x, size_t M, size_t K,
                                    const float *w, const float *b, double eps, float *y,
                                    double *mean, double *rstd);
/* Reductions whose reduced elements are one contiguous run per output
 * element (e.g. the last dim): in and out Float. kind: 0 sum, 1 mean, 2 max. */
enum { PK_FAST_SUM, PK_FAST_MEAN, PK_FAST_MAX };
PT_FUNC bool pk_fast_reduce_f32(const pk_reduce_plan *p, const ptera_tensor *in,
                                ptera_tensor *out, bool keepdim, int kind);
/* out = c ? a : b with c Bool and a, b, out Float. */
PT_FUNC bool pk_fast_where_f32(ptera_kernel_ctx *ctx, const ptera_tensor *c,
                               const ptera_tensor *a, const ptera_tensor *b, ptera_tensor *out);
/* out = mask ? value : self with self, out Float and mask Bool. */
PT_FUNC bool pk_fast_masked_fill_f32(ptera_kernel_ctx *ctx, const ptera_tensor *self,
                                     const ptera_tensor *mask, float value, ptera_tensor *out);

#endif

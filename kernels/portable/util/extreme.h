/* Shared parts of the max/min family (amax, amin, max, min, argmin, cummin) and
 * of scans along one dim (cumsum, cummin). */
#ifndef PK_EXTREME_H
#define PK_EXTREME_H

#include "portable/util/iter.h"

/* True when v beats the current best b (first occurrence wins on ties; NaN
 * beats everything and, once held, is kept). Floats compare in double, other
 * dtypes as int64 (UInt64 unsigned). */
static inline bool pk_extreme_better(const void *v, const void *b, int dt, bool is_max) {
  if (pk_is_float(dt)) {
    double x = pk_load_f64(v, dt), y = pk_load_f64(b, dt);
    if (y != y) return false;
    if (x != x) return true;
    return is_max ? x > y : x < y;
  }
  if (dt == PTERA_DTYPE_UINT64) {
    uint64_t x = *(const uint64_t *)v, y = *(const uint64_t *)b;
    return is_max ? x > y : x < y;
  }
  int64_t x = pk_load_i64(v, dt), y = pk_load_i64(b, dt);
  return is_max ? x > y : x < y;
}

/* Reduces in over the plan into out (already resized to p->out_sizes): the
 * extreme value converted to out's dtype, or (index) its Long position along
 * the reduced dims in logical order. The plan must reduce at least one element. */
PT_FUNC void pk_extreme_reduce(const pk_reduce_plan *p, const ptera_tensor *in, ptera_tensor *out,
                               bool keepdim, bool is_max, bool index);

/* Iteration for a scan along dim d of tensors with the same shape: it walks every
 * line (operands in ops[0..n)), *len is the line length and step[k] the byte
 * stride of operand k along the line. Rank 0 counts as one line of length 1. */
PT_FUNC void pk_scan_init(pk_iter *it, const ptera_tensor *const *ops, size_t n, size_t d,
                          size_t *len, ptrdiff_t *step);

/* Whole kernels shared by the max and min ops.
 * amax/amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out)
 * max.dim_max/min.dim_min(Tensor self, int dim, bool keepdim, *, Tensor(a!) values, Tensor(b!) indices)
 * max.unary_out/min.unary_out(Tensor self, *, Tensor(a!) out)
 * argmax/argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) */
PT_FUNC ptera_status pk_amax_amin(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                  size_t nargs, bool is_max);
PT_FUNC ptera_status pk_max_min_dim(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t nargs, bool is_max);
PT_FUNC ptera_status pk_max_min_unary(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t nargs, bool is_max);
PT_FUNC ptera_status pk_argmax_argmin(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t nargs, bool is_max);

#endif

/* Broadcasting and strided N-d iteration that honours each tensor's dim order,
 * plus shape helpers for copies and reductions. */
#ifndef PK_ITER_H
#define PK_ITER_H

#include "portable/util/args.h"

#define PK_ITER_MAX_OPS 4

/* Walks an index space, keeping a byte offset per operand. Dims are stored in
 * iteration order (outermost first). */
typedef struct pk_iter {
  size_t ndim, nops, numel;
  size_t pos; /* positions visited so far (PK_ITER_FOR) */
  size_t size[PTERA_MAX_DIM];
  ptrdiff_t stride[PK_ITER_MAX_OPS][PTERA_MAX_DIM]; /* bytes */
  size_t idx[PTERA_MAX_DIM];
  ptrdiff_t off[PK_ITER_MAX_OPS]; /* bytes */
} pk_iter;

/* Element (byte) pointer of operand k at the iterator's position. */
#define PK_PTR(base, it, k) ((char *)(base) + (it).off[k])

static inline void pk_iter_next(pk_iter *it) {
  it->pos++;
  for (size_t d = it->ndim; d-- > 0;) {
    if (++it->idx[d] < it->size[d]) {
      for (size_t k = 0; k < it->nops; k++) it->off[k] += it->stride[k][d];
      return;
    }
    it->idx[d] = 0;
    for (size_t k = 0; k < it->nops; k++)
      it->off[k] -= it->stride[k][d] * (ptrdiff_t)(it->size[d] - 1);
  }
}

static inline void pk_iter_reset(pk_iter *it) {
  it->pos = 0;
  for (size_t d = 0; d < it->ndim; d++) it->idx[d] = 0;
  for (size_t k = 0; k < it->nops; k++) it->off[k] = 0;
}

/* Loops over every position of a freshly initialised or reset iterator. */
#define PK_ITER_FOR(it) for (; (it).pos < (it).numel; pk_iter_next(&(it)))

/* Row-based iteration. Merges the dims that are contiguous for every operand,
 * then takes the innermost dim out of it: *n gets its length and stride[k]
 * operand k's byte stride along it (0 = broadcast), and it walks the rows
 * (it->numel of them; 0 when empty). An iterator without dims has one row of 1. */
PT_FUNC void pk_iter_rows(pk_iter *it, size_t *n, ptrdiff_t *stride);
/* Moves a fresh or reset iterator to position pos (< numel). */
PT_FUNC void pk_iter_seek(pk_iter *it, size_t pos);

/* Generic set-up: sizes[ndim] in logical dim order; strides[k][ndim] in elements
 * per operand; esize[k] element sizes; order = iteration order of logical dims
 * (outermost first), NULL for logical (row-major) order. Size-1 dims are dropped. */
PT_FUNC void pk_iter_init_raw(pk_iter *it, size_t ndim, const int32_t *sizes,
                              const uint8_t *order, size_t nops,
                              const int64_t strides[][PTERA_MAX_DIM], const size_t *esize);

/* Elementwise set-up: operand 0 is out; ins[0..nin) are broadcast to out's shape.
 * Iterates in out's memory order, so out is written sequentially. nin <= 3. */
PT_FUNC void pk_iter_init(pk_iter *it, const ptera_tensor *out, const ptera_tensor *const *ins,
                          size_t nin);

/* Walks one tensor in logical row-major order (for reshaping copies). */
PT_FUNC void pk_iter_init_logical(pk_iter *it, const ptera_tensor *t);

/* The broadcast shape of n tensors (PyTorch rules, trailing alignment).
 * InvalidArgument naming the two operands that disagree. */
PT_FUNC ptera_status pk_broadcast_shape(ptera_kernel_ctx *ctx, const char *op,
                                        const ptera_tensor *const *ts, const char *const *names,
                                        size_t n, int32_t *out_sizes, size_t *out_dim);
/* t can be broadcast to sizes[dim]. */
PT_FUNC bool pk_can_broadcast_to(const ptera_tensor *t, const int32_t *sizes, size_t dim);

/* True when the elements lie in row-major logical order in memory (the dim
 * order, ignoring size-1 dims, is 0..n-1). */
PT_FUNC bool pk_is_rowmajor(const ptera_tensor *t);
/* True for rank >= 3 when the elements lie as N, spatial dims..., C in memory
 * (the channels-last dim orders 0,2,3,1 and 0,2,3,4,1; size-1 dims ignored). */
PT_FUNC bool pk_is_channels_last(const ptera_tensor *t);
/* Same sizes and same strides (memory layouts agree element for element). */
PT_FUNC bool pk_same_layout(const ptera_tensor *a, const ptera_tensor *b);

/* Copies n elements of es bytes between runs with element strides ds and ss
 * (1 and 1: one memcpy; the common sizes as fixed-size moves). */
PT_FUNC void pk_copy_run(char *d, int64_t ds, const char *s, int64_t ss, int64_t n, size_t es);
/* Copies src to dst (same numel) in logical row-major order: a reshape. Dtypes
 * may differ (converted). */
PT_FUNC void pk_copy_reshape(ptera_tensor *dst, const ptera_tensor *src);
/* Copies src to dst of the same shape, converting dtype and dim order. */
PT_FUNC void pk_copy_same_shape(ptera_tensor *dst, const ptera_tensor *src);

/* ---- Reductions ---- */
typedef struct pk_reduce_plan {
  bool reduce[PTERA_MAX_DIM]; /* per input dim */
  size_t out_dim;
  int32_t out_sizes[PTERA_MAX_DIM];
  size_t reduced_numel; /* elements folded into each output element */
} pk_reduce_plan;

/* dims[ndims] may be negative; has_dims false or ndims == 0 reduces all dims.
 * Rejects out-of-range and repeated dims. */
PT_FUNC ptera_status pk_reduce_plan_init(ptera_kernel_ctx *ctx, const char *op,
                                         const ptera_tensor *in, const int64_t *dims, size_t ndims,
                                         bool has_dims, bool keepdim, pk_reduce_plan *p);
/* outer: operands (0 out, 1 in) over the output elements; inner: operand 0 = in
 * over the reduced dims in logical order, offsets relative to outer.off[1]. out
 * must already have p->out_sizes. */
PT_FUNC void pk_reduce_iters(const pk_reduce_plan *p, const ptera_tensor *in,
                             const ptera_tensor *out, bool keepdim, pk_iter *outer,
                             pk_iter *inner);

#endif

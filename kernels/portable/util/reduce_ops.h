/* Shared bodies of the sum/mean/prod family. */
#ifndef PK_REDUCE_OPS_H
#define PK_REDUCE_OPS_H

#include "portable/util/iter.h"

/* self is args[0]; dim_i / keepdim_i are arg indices or -1 (all dims, no keepdim);
 * dtype_i is the ScalarType? arg, out_i the out tensor. mean divides by the count
 * and needs a floating out. */
PT_FUNC ptera_status pk_sum_mean(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                 int dim_i, int keepdim_i, int dtype_i, int out_i, bool mean);

typedef enum pk_acc { PK_ACC_SUM, PK_ACC_MEAN, PK_ACC_PROD } pk_acc;

/* Accumulates in over the plan into out (already resized to p->out_sizes) in
 * out's compute type, in logical order: the sum, the mean (a floating out), or
 * the product (1 for nothing). */
PT_FUNC void pk_accumulate(const pk_reduce_plan *p, const ptera_tensor *in, ptera_tensor *out,
                           bool keepdim, pk_acc kind);

#endif

/* Shared bodies of the sum/mean family. */
#ifndef PK_REDUCE_OPS_H
#define PK_REDUCE_OPS_H

#include "portable/util/iter.h"

/* self is args[0]; dim_i / keepdim_i are arg indices or -1 (all dims, no keepdim);
 * dtype_i is the ScalarType? arg, out_i the out tensor. mean divides by the count
 * and needs a floating out. */
PT_FUNC ptera_status pk_sum_mean(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                 int dim_i, int keepdim_i, int dtype_i, int out_i, bool mean);

#endif

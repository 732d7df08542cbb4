/* Shared drivers for the comparison ops (eq, ne, lt, le, gt, ge). */
#ifndef PK_COMPARE_H
#define PK_COMPARE_H

#include "portable/util/iter.h"

typedef enum pk_cmp { PK_CMP_EQ, PK_CMP_NE, PK_CMP_LT, PK_CMP_LE, PK_CMP_GT, PK_CMP_GE } pk_cmp;

/* op.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out): args [self, other, out, ret].
 * Compared in promote(self, other) after broadcasting; out of any real or bool dtype gets 1/0. */
PT_FUNC ptera_status pk_compare_tensor_kernel(ptera_kernel_ctx *ctx, const char *op,
                                              ptera_value **args, size_t nargs, pk_cmp cmp);
/* op.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out): args [self, other, out, ret]. */
PT_FUNC ptera_status pk_compare_scalar_kernel(ptera_kernel_ctx *ctx, const char *op,
                                              ptera_value **args, size_t nargs, pk_cmp cmp);

#endif

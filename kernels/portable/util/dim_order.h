/* The argument checks shared by dim_order_ops copies. */
#ifndef PK_DIM_ORDER_H
#define PK_DIM_ORDER_H

#include "portable/util/pk.h"

/* For op(Tensor self, *, bool non_blocking=False, int[]? dim_order=None,
 * Tensor(a!) out), args [self, non_blocking, dim_order, out, ret]: reads self
 * and out, requires non_blocking false, equal ranks, a given dim_order equal
 * to out's (None means "preserve": out must have self's layout), and resizes
 * out to self's shape. */
PT_FUNC ptera_status pk_dim_order_copy_args(ptera_kernel_ctx *ctx, const char *op,
                                            ptera_value **args, size_t nargs, ptera_tensor **self,
                                            ptera_tensor **out);

#endif

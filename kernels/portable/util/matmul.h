/* Strided matrix product and argument checks shared by mm / addmm / bmm / linear. */
#ifndef PK_MATMUL_H
#define PK_MATMUL_H

#include "portable/util/iter.h"

/* a [n,k] @ b [k,m] -> out [n,m], all of one real dtype; accumulation runs in
 * the compute type sequentially over k. When bias is given (broadcastable to
 * [n,m], same dtype): out = beta * bias + alpha * (a @ b); beta == 0 ignores bias. */
PT_FUNC void pk_matmul(const ptera_tensor *a, const ptera_tensor *b, ptera_tensor *out,
                       const ptera_tensor *bias, double alpha, double beta);

/* an (a) is real; a, b and out share its dtype. */
PT_FUNC ptera_status pk_matmul_check_dtypes(ptera_kernel_ctx *ctx, const char *op, const char *an,
                                            const ptera_tensor *a, const char *bn,
                                            const ptera_tensor *b, const ptera_tensor *out);
/* args [self, mat2, out, ret] for mm / bmm, dtypes checked as above. */
PT_FUNC ptera_status pk_matmul_get_args(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t nargs, ptera_tensor **a, ptera_tensor **b,
                                        ptera_tensor **out);

#endif

/* Strided matrix product shared by mm / addmm (and later bmm / linear). */
#ifndef PK_MATMUL_H
#define PK_MATMUL_H

#include "portable/util/iter.h"

/* a [n,k] @ b [k,m] -> out [n,m], all of one real dtype; accumulation runs in
 * the compute type sequentially over k. When bias is given (broadcastable to
 * [n,m], same dtype): out = beta * bias + alpha * (a @ b); beta == 0 ignores bias. */
PT_FUNC void pk_matmul(const ptera_tensor *a, const ptera_tensor *b, ptera_tensor *out,
                       const ptera_tensor *bias, double alpha, double beta);

#endif

/* Checks shared by gather / scatter. */
#ifndef PK_INDEX_UTIL_H
#define PK_INDEX_UTIL_H

#include "portable/util/iter.h"

/* index is Long, has self's rank (rank 0 and 1 are interchangeable), and
 * index.size(d) <= self.size(d) for every d != dim (and for dim too when
 * check_dim). *d gets the wrapped dim. */
PT_FUNC ptera_status pk_check_index_tensor(ptera_kernel_ctx *ctx, const char *op,
                                           const ptera_tensor *self, int64_t dim,
                                           const ptera_tensor *index, size_t *d);
/* Reads index element value at p and checks 0 <= v < size. */
PT_FUNC ptera_status pk_read_index(ptera_kernel_ctx *ctx, const char *op, const void *p,
                                   int64_t size, int64_t *v);

#endif

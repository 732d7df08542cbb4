/* Shared by reflection_pad{1,2,3}d and replication_pad{1,2,3}d. */
#ifndef PK_PAD_H
#define PK_PAD_H

#include "portable/util/iter.h"

/* op(Tensor self, int[2k] padding, *, Tensor(a!) out): args [self, padding, out, ret].
 * The last k dims are padded (padding pairs from the last dim backwards); self
 * has rank k+1 or k+2. reflect: mirror without repeating the edge (padding <
 * size); otherwise replicate the edge (size > 0). */
PT_FUNC ptera_status pk_pad_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t nargs, size_t k, bool reflect);

#endif

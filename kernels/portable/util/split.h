/* Shared by split_copy, split_with_sizes_copy and unbind_copy. */
#ifndef PK_SPLIT_H
#define PK_SPLIT_H

#include "portable/util/region.h"

/* Copies consecutive chunks of self along dim d into outs[k] (chunk sizes
 * lens[k], summing to self.size(d)); when drop_dim the dim is removed from each
 * out (lens all 1). Each out must have self's dtype; each is resized. */
PT_FUNC ptera_status pk_split_into(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *self,
                                   size_t d, ptera_tensor **outs, const int64_t *lens, size_t n,
                                   bool drop_dim);

#endif

/* Spatial argument helpers for convolution and pooling. */
#ifndef PK_POOL_UTIL_H
#define PK_POOL_UTIL_H

#include "portable/util/args.h"

/* Reads an int[] arg into out[nsp] (nsp spatial dims): one value is repeated, an
 * empty list gives def (when allow_empty), each value must be >= min. */
PT_FUNC ptera_status pk_get_spatial(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t i, const char *name, size_t nsp, int64_t min,
                                    bool allow_empty, const int64_t *def, int64_t *out);

#endif

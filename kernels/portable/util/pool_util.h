/* Spatial argument helpers for convolution and pooling. */
#ifndef PK_POOL_UTIL_H
#define PK_POOL_UTIL_H

#include "portable/util/args.h"

/* Reads an int[] arg into out[nsp] (nsp spatial dims): one value is repeated, an
 * empty list gives def (when allow_empty), each value must be >= min. */
PT_FUNC ptera_status pk_get_spatial(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t i, const char *name, size_t nsp, int64_t min,
                                    bool allow_empty, const int64_t *def, int64_t *out);

/* Output length of a pooling window sweep along one dim (dilation d, ceil_mode
 * ceil; the last window must start inside the input or the left padding);
 * 0 when no window fits. */
PT_FUNC int64_t pk_pool_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil);
/* sizes[in->dim] = in's shape ([C,H,W] or [N,C,H,W]) with H, W replaced by oh, ow. */
PT_FUNC void pk_pool_shape(const ptera_tensor *t, int64_t oh, int64_t ow, int32_t *sizes);
/* The output shape of avg / max pooling: checks in has rank 3 or 4 and the
 * padding (p[i] <= k[i] / 2), then fills sizes[in->dim] with the pooled
 * shape; InvalidArgument when no window fits. */
PT_FUNC ptera_status pk_pool_out_shape(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                       const int64_t *k, const int64_t *s, const int64_t *p,
                                       const int64_t *d, bool ceil, int32_t *sizes);
/* Byte strides {n, c, h, w} of a [C,H,W] (n stride 0) or [N,C,H,W] tensor t
 * whose elements are es bytes. */
PT_FUNC void pk_nchw_strides(const ptera_tensor *t, ptrdiff_t es, ptrdiff_t *st);

#endif

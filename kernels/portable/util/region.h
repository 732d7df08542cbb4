/* Strided region copies and tensor-list arguments for shape ops (cat, split,
 * flip, repeat, views). */
#ifndef PK_REGION_H
#define PK_REGION_H

#include "portable/util/iter.h"

/* Up to 2 * PTERA_MAX_DIM dims (repeat splits each dim in two). */
#define PK_REGION_MAX_DIM (2 * PTERA_MAX_DIM)

/* For every index i over sizes[ndim]:
 *   dst[doff + sum(i[d] * dstr[d])] = src[soff + sum(i[d] * sstr[d])]
 * (offsets and strides in elements; strides may be negative). Equal dtypes copy
 * bytes, otherwise elements are converted (both real or bool then). Callers
 * check that every address is in bounds. */
PT_FUNC void pk_copy_region(void *dst, int ddt, const int64_t *dstr, int64_t doff,
                            const void *src, int sdt, const int64_t *sstr, int64_t soff,
                            size_t ndim, const int64_t *sizes);

/* Copies the view of self given by sizes = out->sizes, element strides vstr[out->dim]
 * and element offset off into out (same dtype or convertible). */
PT_FUNC void pk_copy_view(ptera_tensor *out, const ptera_tensor *self, const int64_t *vstr,
                          int64_t off);

/* Tensor[]: validates each tensor; *out is an array of *len tensors from the
 * kernel's temp memory (MemoryAllocationFailed when it runs out). */
PT_FUNC ptera_status pk_get_tensor_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t i, const char *name, ptera_tensor ***out,
                                        size_t *len);

#endif

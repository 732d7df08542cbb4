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

/* Python slicing of a dim of size n: start/end (defaults 0 and n when absent)
 * wrap once and clamp to [0, n]; step >= 1. *first gets the first index;
 * returns the slice length. */
PT_FUNC int64_t pk_slice_range(int64_t n, bool has_start, int64_t start, bool has_end, int64_t end,
                               int64_t step, int64_t *first);

/* The tail of select_scatter / slice_scatter (shapes already checked): resizes out
 * like self, out = self, then copies src into the view of out along dim d at
 * index start: with keep_dim, src has out's rank and dim d steps by step; else
 * dim d is dropped (select). */
PT_FUNC ptera_status pk_scatter_view(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *out,
                                     const ptera_tensor *self, const ptera_tensor *src, size_t d,
                                     int64_t start, int64_t step, bool keep_dim);

/* Tensor[]: validates each tensor; *out is an array of *len tensors from the
 * kernel's temp memory (MemoryAllocationFailed when it runs out). */
PT_FUNC ptera_status pk_get_tensor_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                        size_t i, const char *name, ptera_tensor ***out,
                                        size_t *len);

#endif

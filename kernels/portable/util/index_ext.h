/* Helpers for the indexing / masking / scatter ops: logical element offsets,
 * index reading (Long or Int), tensor list arguments. */
#ifndef PK_INDEX_EXT_H
#define PK_INDEX_EXT_H

#include "portable/util/iter.h"

/* Byte offset of the element at logical row-major position flat of t. */
PT_FUNC ptrdiff_t pk_flat_off(const ptera_tensor *t, size_t flat);
/* Byte offset of the element at logical multi-index idx[t->dim]. */
PT_FUNC ptrdiff_t pk_idx_off(const ptera_tensor *t, const int64_t *idx);
/* Reads an index element of a Long or Int tensor; negative values wrap once by
 * size (when allow_neg); out-of-range is InvalidArgument naming arg. */
PT_FUNC ptera_status pk_read_index_any(ptera_kernel_ctx *ctx, const char *op, const char *arg,
                                       const void *p, int dt, int64_t size, bool allow_neg,
                                       int64_t *v);
/* Tensor?[]: up to cap entries, NULL for None. */
PT_FUNC ptera_status pk_get_opt_tensor_list(ptera_kernel_ctx *ctx, const char *op,
                                            ptera_value **args, size_t i, const char *name,
                                            ptera_tensor **buf, size_t cap, size_t *len);

/* Element strides of t broadcast (trailing alignment) to sizes[bdim]. */
PT_FUNC void pk_bcast_strides(const ptera_tensor *t, size_t bdim, const int32_t *sizes,
                              int64_t *strides);
/* dst = dst (+) src for one element of dtype dt (a real or bool dtype); bool ORs. */
PT_FUNC void pk_accumulate_elem(void *dst, const void *src, int dt);
/* elem = s stored as one element of dtype dt (elem holds 16 bytes). */
PT_FUNC void pk_store_scalar(void *elem, int dt, const pk_scalar *s);
/* Broadcast shape sizes[*dim] of self and mask (the masked_* ops). */
PT_FUNC ptera_status pk_mask_shape(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *self,
                                   const ptera_tensor *mask, int32_t *sizes, size_t *dim);
/* Number of true entries of the Bool mask broadcast to sizes[dim]. */
PT_FUNC size_t pk_mask_count(const ptera_tensor *mask, size_t dim, const int32_t *sizes);

/* The body of scatter.src_out / scatter_add.out (self, dim, index, src, out):
 * parses and checks the args (self real or bool when add), then out = self and
 * src is scattered (or added, when add) into out along dim at index; every index
 * value is validated before anything is written. */
PT_FUNC ptera_status pk_scatter_src_op(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t nargs, bool add);

#endif

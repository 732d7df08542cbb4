/* Typed f32 pooling for the fast path (NCHW planes, contiguous): max pool
 * with indices, average pool and global average pool, through the pool micro-kernels of
 * the selected ISA, planes split over the method's threads (max pool without
 * indices: the output rows of every plane). Prefix pk_. */
#ifndef PK_CPU_POOL2D_H
#define PK_CPU_POOL2D_H

#include "cpu/ukernels/pool/pool.h"
#include "ptera/kernel.h"

/* planes consecutive h x w planes of in to oh x ow planes of out and idx
 * (NULL: the indices are not computed; the same values). */
PT_FUNC void pk_maxpool2d_f32(const pk_maxpool2d_params *p, size_t planes, const float *in, float *out,
                              int64_t *idx, ptera_kernel_ctx *ctx);
/* planes consecutive h x w planes of in to oh x ow planes of out. */
PT_FUNC void pk_avgpool2d_f32(const pk_avgpool2d_params *p, size_t planes, const float *in, float *out,
                              ptera_kernel_ctx *ctx);
/* out[i] = the mean of the hw floats of plane i of in. */
PT_FUNC void pk_gavgpool_f32(const float *in, float *out, size_t planes, size_t hw, ptera_kernel_ctx *ctx);

#endif

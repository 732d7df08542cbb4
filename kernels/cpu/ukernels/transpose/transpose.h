/* 32-bit element transpose micro-kernels (any 32-bit type: the bits are
 * moved, never converted):
 *
 *   dst[j * dst_stride + i] = src[i * src_stride + j]   for i < rows, j < cols
 *
 * strides in elements; src and dst do not overlap; nothing outside the
 * region is read or written. Each ISA walks the region in square tiles held
 * in registers (avx512 16x16 with masked edges; avx2 8x8 and neon 4x4, with
 * the edges scalar); the scalar twin in 16x16 blocks of single moves.
 * Names: pk_x32_transpose_<isa> (x32-transpose-<tile>-<isa>.c). Prefix pk_. */
#ifndef PK_UKERNELS_TRANSPOSE_H
#define PK_UKERNELS_TRANSPOSE_H

#include <stddef.h>
#include <string.h>

#include "core/core.h"

typedef void (*pk_x32_transpose_fn)(const void *src, size_t src_stride, void *dst, size_t dst_stride, size_t rows,
                                    size_t cols);

/* Element (i, j) of the region moved as 4 bytes (the edges of the vector
 * variants and the scalar twin). */
static inline void pk_x32_transpose_one(const void *src, size_t ss, void *dst, size_t ds, size_t i, size_t j) {
  memcpy((char *)dst + (j * ds + i) * 4, (const char *)src + (i * ss + j) * 4, 4);
}

PT_FUNC void pk_x32_transpose_scalar(const void *src, size_t ss, void *dst, size_t ds, size_t rows, size_t cols);
#if defined(__x86_64__)
PT_FUNC void pk_x32_transpose_avx2(const void *src, size_t ss, void *dst, size_t ds, size_t rows, size_t cols);
PT_FUNC void pk_x32_transpose_avx512(const void *src, size_t ss, void *dst, size_t ds, size_t rows, size_t cols);
#elif defined(__aarch64__)
PT_FUNC void pk_x32_transpose_neon(const void *src, size_t ss, void *dst, size_t ds, size_t rows, size_t cols);
#endif

#endif

/* 32-bit 2-D transpose through the selected ISA's micro-kernel
 * (ukernels/transpose/transpose.h): dst[j * dst_stride + i] =
 * src[i * src_stride + j] for i < rows, j < cols, strides in elements, the
 * bits moved as they are (float or int32). Single-threaded: callers split
 * rows or columns over their threads. Prefix pk_. */
#ifndef PK_CPU_TRANSPOSE_H
#define PK_CPU_TRANSPOSE_H

#include <stddef.h>

#include "core/core.h"

PT_FUNC void pk_x32_transpose(const void *src, size_t src_stride, void *dst, size_t dst_stride, size_t rows,
                              size_t cols);

#endif

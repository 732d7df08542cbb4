/* Every second 32-bit element: the selected ISA's micro-kernel
 * (ukernels/evens/evens.h), dst[r * dst_stride + i] = src[r + 2 * i] for
 * r < rows, i < n, reading src[0 .. rows - 1 + 2n - 2] only, the bits moved
 * as they are. Single-threaded.
 * Callers take the kernel once and call it on many short rows (choosing it
 * per row cost a stride-2 convolution's gather 3%). Prefix pk_. */
#ifndef PK_CPU_EVENS_H
#define PK_CPU_EVENS_H

#include <stddef.h>

#include "core/core.h"

typedef void (*pk_x32_evens_fn)(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride);

/* The selected ISA's kernel. */
PT_FUNC pk_x32_evens_fn pk_x32_evens_kernel(void);

#endif

/* 32-bit every-second-element copy micro-kernels (any 32-bit type: the bits
 * are moved, never converted), for rows consecutive starts:
 *
 *   dst[r * dst_stride + i] = src[r + 2 * i]   for r < rows, i < n
 *
 * reading src[0 .. rows - 1 + 2n - 2] only (the odd element after a row's
 * last is never touched, so the last column may end a buffer). The vector
 * variants take two vectors' worth of src per vector of dst and keep the
 * even lanes (avx512 one vpermt2ps, masked at the end; avx2 shuffles, neon
 * vld2q), the edges scalar where they have no masks. A stride-2
 * convolution gathers its input with it: row r is kernel column r's taps
 * for n output pixels. Names: pk_x32_evens_<isa> (x32-evens-<isa>.c). Prefix pk_. */
#ifndef PK_UKERNELS_EVENS_H
#define PK_UKERNELS_EVENS_H

#include <stddef.h>

#include "core/core.h"

PT_FUNC void pk_x32_evens_scalar(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride);
#if defined(__x86_64__)
PT_FUNC void pk_x32_evens_avx2(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride);
PT_FUNC void pk_x32_evens_avx512(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride);
#elif defined(__aarch64__)
PT_FUNC void pk_x32_evens_neon(const void *src, size_t n, size_t rows, void *dst, size_t dst_stride);
#endif

#endif

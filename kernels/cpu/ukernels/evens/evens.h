/* 32-bit every-second-element copy micro-kernels (any 32-bit type: the bits
 * are moved, never converted):
 *
 *   dst[i] = src[2 * i]   for i < n
 *
 * reading src[0 .. 2n - 2] only (the odd element after the last is never
 * touched, so a row's last column may end a buffer). The vector variants
 * take two vectors' worth of src per vector of dst and keep the even lanes
 * (avx512 one vpermt2ps, masked at the end; avx2 shuffles, neon vld2q), the
 * edges scalar where they have no masks. A stride-2 convolution gathers its
 * input rows with it. Names: pk_x32_evens_<isa> (x32-evens-<isa>.c). Prefix pk_. */
#ifndef PK_UKERNELS_EVENS_H
#define PK_UKERNELS_EVENS_H

#include <stddef.h>

#include "core/core.h"

PT_FUNC void pk_x32_evens_scalar(const void *src, size_t n, void *dst);
#if defined(__x86_64__)
PT_FUNC void pk_x32_evens_avx2(const void *src, size_t n, void *dst);
PT_FUNC void pk_x32_evens_avx512(const void *src, size_t n, void *dst);
#elif defined(__aarch64__)
PT_FUNC void pk_x32_evens_neon(const void *src, size_t n, void *dst);
#endif

#endif

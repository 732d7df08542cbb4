/* int8 dot-product micro-kernels for the quantized matrix products (the
 * XnnpackBackend's FullyConnected): four dot products of one int8 row a,
 * offset by its zero point za, with four int8 rows b + j*b_stride:
 *   dot[j] = sum_{k < K} (a[k] - za) * b[j*b_stride + k]      (j < 4)
 * in int32; callers keep K <= PK_QS8_DOT_MAX_K so no sum can overflow
 * (|a - za| <= 255, |b| <= 128). Prefix pk_. */
#ifndef PK_UKERNELS_GEMM_QS8_H
#define PK_UKERNELS_GEMM_QS8_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

#define PK_QS8_DOT_MAX_K 65536u

typedef void (*pk_qs8_dot4_fn)(size_t K, const int8_t *a, int32_t za, const int8_t *b, size_t b_stride,
                               int32_t *dot);

PT_FUNC void pk_qs8_dot4_scalar(size_t K, const int8_t *a, int32_t za, const int8_t *b, size_t b_stride,
                                int32_t *dot);
#if defined(__x86_64__)
PT_FUNC void pk_qs8_dot4_avx2(size_t K, const int8_t *a, int32_t za, const int8_t *b, size_t b_stride,
                              int32_t *dot);
#endif

#endif

/* int8 dot-product micro-kernels for the quantized matrix products (the
 * XnnpackBackend's FullyConnected and convolutions): four dot products of one int8 row a,
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


/* The qs8 GEMM: up to PK_QS8_MR int8 rows a (stride lda, readable to kc)
 * times one panel of PK_QS8_NR int8 filter channels over kc inputs:
 *   c[m*ldc + j] = sum_{k < kc} a[m*lda + k] * w(j, k)     (m < mr, j < NR)
 * exactly in int32 (kc <= PK_QS8_GEMM_MAX_KC). The panel layout is the same
 * for every ISA (packed once at prepare, pk_qs8_pack_panel):
 *   int8  w[kc/4][NR][4]   w(j, k) at [k/4][j][k%4], zero past the filter
 *   int32 ksum[NR]         sum over k of w(j, k) (the u8 x s8 dot-product
 *                          instructions take a + 128 and subtract 128 ksum)
 * kc is a multiple of 4. */
#define PK_QS8_MR 4
#define PK_QS8_NR 16
#define PK_QS8_GEMM_MAX_KC 16384u

/* Bytes of a panel over kc inputs (kc a multiple of 4). */
static inline size_t pk_qs8_panel_bytes(size_t kc) { return kc * PK_QS8_NR + 4 * PK_QS8_NR; }

typedef void (*pk_qs8_gemm_fn)(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel, int32_t *c,
                               size_t ldc);

PT_FUNC void pk_qs8_gemm_4x16c4_scalar(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel,
                                       int32_t *c, size_t ldc);
#if defined(__x86_64__)
PT_FUNC void pk_qs8_gemm_4x16c4_avx2(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel,
                                     int32_t *c, size_t ldc);
PT_FUNC void pk_qs8_gemm_4x16c4_avxvnni(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel,
                                        int32_t *c, size_t ldc);
PT_FUNC void pk_qs8_gemm_4x16c4_avx512vnni(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel,
                                           int32_t *c, size_t ldc);
#endif
#if defined(__aarch64__)
PT_FUNC void pk_qs8_gemm_4x16c4_neon(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel,
                                     int32_t *c, size_t ldc);
PT_FUNC void pk_qs8_gemm_4x16c4_neondot(size_t mr, size_t kc, const int8_t *a, size_t lda, const void *panel,
                                        int32_t *c, size_t ldc);
#endif

/* Packs one panel: filter channels j < nc (nc <= NR; the rest zero) over
 * inputs [0, kn) of a kc-wide panel (kn <= kc, the rest zero), channel j's
 * input k read by wget(ctx, j, k). */
typedef int8_t (*pk_qs8_wget_fn)(const void *ctx, size_t j, size_t k);
PT_FUNC void pk_qs8_pack_panel(size_t nc, size_t kn, size_t kc, pk_qs8_wget_fn wget, const void *ctx, void *panel);

#endif

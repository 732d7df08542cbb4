/* The f32 GEMM compute layer: C[M,N] = clamp(A[M,K]·B[K,N] + bias, min, max),
 * C row-major with row stride ldc.
 *
 * Either operand may be packed ahead of time (prepare: constant weights) into
 * an opaque layout for the ISA selected when it was packed (prepare re-runs
 * per method, so keep forcing out of the way between packing and running);
 * the other is read through general strides and packed on the fly into the
 * caller's workspace. Work is split with ptera_kernel_parallel_for; the
 * workspace must be sized for at least ptera_kernel_thread_count(ctx)
 * threads. The micro-kernels are in ukernels/gemm/ (gemm_ukernel.h). */
#ifndef PK_CPU_GEMM_H
#define PK_CPU_GEMM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"
#include "cpu/isa.h"
#include "ptera/kernel.h"

typedef struct pk_f32_operand { /* element (r,c) at ptr[r*s_r + c*s_c], or packed */
  const float *ptr;
  size_t s_r, s_c;
  const void *packed; /* non-NULL: from pk_gemm_f32_pack_a/_b, ptr ignored */
} pk_f32_operand;

typedef struct pk_gemm_f32_args {
  size_t M, N, K;
  pk_f32_operand a, b;          /* a: M×K, b: K×N */
  const float *bias_m, *bias_n; /* per row (NCHW conv) and/or per column (linear); NULL = none */
  float *c;
  size_t ldc;
  float min, max; /* -INFINITY/INFINITY = no clamp */
  /* C is larger than the caches and not read again soon (a convolution's
   * output of megabytes): its final values may be stored around the caches
   * where the ISA has such stores (x86), saving the read of each line before
   * it is written. A hint: the result is the same either way. */
  bool stream_c;
} pk_gemm_f32_args;

/* Bytes of a packed A (M×K) / B (K×N); the buffer must be 64-byte aligned. */
PT_FUNC size_t pk_gemm_f32_pack_a_size(size_t M, size_t K);
PT_FUNC void pk_gemm_f32_pack_a(size_t M, size_t K, const float *a, size_t s_m, size_t s_k, void *packed);
PT_FUNC size_t pk_gemm_f32_pack_b_size(size_t K, size_t N);
PT_FUNC void pk_gemm_f32_pack_b(size_t K, size_t N, const float *b, size_t s_k, size_t s_n, void *packed);
/* Lanes l0 .. l0 + n - 1 of a packed operand (rows of an A, columns of a B)
 * multiplied by scale[0 .. n) (each product rounded once to f32). */
PT_FUNC void pk_gemm_f32_packed_scale(void *packed, size_t l0, size_t n, const double *scale);
/* The ISA a packed operand was packed for. */
PT_FUNC pk_isa pk_gemm_f32_packed_isa(const void *packed);
/* A B (K×N) packed by the caller for isa's kernels (the convolution gathers
 * its input straight into it): pk_gemm_f32_b_panel gives the panel width NR,
 * pk_gemm_f32_pack_b_size_isa the bytes, and pk_gemm_f32_pack_b_start writes
 * the header and returns the panels to fill: panel p, step k, lane i at
 * [(p*K + k)*NR + i], lanes past N zero. */
PT_FUNC size_t pk_gemm_f32_b_panel(pk_isa isa);
PT_FUNC size_t pk_gemm_f32_pack_b_size_isa(size_t K, size_t N, pk_isa isa);
PT_FUNC float *pk_gemm_f32_pack_b_start(void *packed, size_t K, size_t N, pk_isa isa);
/* The panels of an operand whose header pk_gemm_f32_pack_b_start or
 * _pack_a_start already wrote (several tasks filling one operand). */
PT_FUNC float *pk_gemm_f32_packed_panels(void *packed);
/* The same for an A (M×K) written by the caller: pk_gemm_f32_a_panel gives
 * the panel height MR; panel p, step k, lane i at [(p*K + k)*MR + i], lanes
 * past M zero; bytes as pk_gemm_f32_pack_a_size for isa. */
PT_FUNC size_t pk_gemm_f32_a_panel(pk_isa isa);
PT_FUNC size_t pk_gemm_f32_pack_a_size_isa(size_t M, size_t K, pk_isa isa);
PT_FUNC float *pk_gemm_f32_pack_a_start(void *packed, size_t M, size_t K, pk_isa isa);
/* pk_gemm_f32_workspace of an M×N×K product whose B is packed for isa and
 * whose A is packed (a_packed) or read as it is, before the operands exist. */
PT_FUNC size_t pk_gemm_f32_workspace_b_packed(size_t M, size_t N, size_t K, bool a_packed, pk_isa isa,
                                             size_t nthreads);
/* Whether pk_gemm_f32_run reads this product's B where it lies, unpacked
 * (an unpacked B of unit column stride against few rows of A, on ISAs whose
 * kernels can): no workspace goes to B then. */
PT_FUNC bool pk_gemm_f32_b_in_place(const pk_gemm_f32_args *args);
/* Bytes of temp pk_gemm_f32_run needs with nthreads threads (any alignment). */
PT_FUNC size_t pk_gemm_f32_workspace(const pk_gemm_f32_args *args, size_t nthreads);
/* Splits work with ptera_kernel_parallel_for(ctx, ...) (ctx NULL = one thread). */
PT_FUNC void pk_gemm_f32_run(const pk_gemm_f32_args *args, void *workspace, ptera_kernel_ctx *ctx);
/* Share t of an nthreads-way split of the same work (what each parallel task
 * runs; the shares together compute C once). For callers with their own
 * threads (benchmarks) and tests of the split; workspace as for nthreads. */
PT_FUNC void pk_gemm_f32_run_share(const pk_gemm_f32_args *args, void *workspace, size_t nthreads, size_t t);
/* The part of C that share t computes: rows [*m0, *m1) x columns [*n0, *n1)
 * (empty when a range is; t >= nthreads: nothing). */
PT_FUNC void pk_gemm_f32_share_part(const pk_gemm_f32_args *args, size_t nthreads, size_t t, size_t *m0,
                                    size_t *m1, size_t *n0, size_t *n1);

/* `batches` products of at most PK_GEMM_F32_ROWS_MAX rows straight from B,
 * no packing (gemm_rows.c): args is batch 0's, with a unpacked and its rows
 * contiguous (a.s_c == 1), b unpacked with any strides, no bias, no clamp,
 * N, K >= 1; batch i's a, b and c start sa, sb, sc floats further on. The
 * batches split over ptera_kernel_parallel_for(ctx, ...) (ctx NULL: one
 * thread). For a decoder step's few rows per head against a KV cache. */
#define PK_GEMM_F32_ROWS_MAX 8u
PT_FUNC void pk_gemm_f32_rows(const pk_gemm_f32_args *args, size_t batches, size_t sa, size_t sb, size_t sc,
                              ptera_kernel_ctx *ctx);

#endif

/* 32-bit transpose dispatch (see transpose.h). */
#include "cpu/transpose.h"

#include "cpu/isa.h"
#include "cpu/ukernels/transpose/transpose.h"

void pk_x32_transpose(const void *src, size_t src_stride, void *dst, size_t dst_stride, size_t rows, size_t cols) {
  switch (pk_isa_selected()) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: pk_x32_transpose_avx512(src, src_stride, dst, dst_stride, rows, cols); return;
    case PK_ISA_AVX2: pk_x32_transpose_avx2(src, src_stride, dst, dst_stride, rows, cols); return;
#elif defined(__aarch64__)
    case PK_ISA_NEON: pk_x32_transpose_neon(src, src_stride, dst, dst_stride, rows, cols); return;
#endif
    default: pk_x32_transpose_scalar(src, src_stride, dst, dst_stride, rows, cols); return;
  }
}

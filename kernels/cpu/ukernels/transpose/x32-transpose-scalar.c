/* 32-bit transpose, scalar twin (see transpose.h): 16x16 blocks, so the
 * lines each block reads and writes stay in L1. */
#include "cpu/ukernels/transpose/transpose.h"

#define TB 16u

void pk_x32_transpose_scalar(const void *src, size_t ss, void *dst, size_t ds, size_t rows, size_t cols) {
  for (size_t i0 = 0; i0 < rows; i0 += TB)
    for (size_t j0 = 0; j0 < cols; j0 += TB) {
      size_t i1 = i0 + TB < rows ? i0 + TB : rows, j1 = j0 + TB < cols ? j0 + TB : cols;
      for (size_t j = j0; j < j1; j++)
        for (size_t i = i0; i < i1; i++) pk_x32_transpose_one(src, ss, dst, ds, i, j);
    }
}

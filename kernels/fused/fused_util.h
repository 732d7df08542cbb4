/* Checks the fused kernels share (internal to the kernels of kernels/fused): an
 * argument's tensor, the f32 layout they take, and whether two byte ranges
 * overlap (an out that must be staged). Prefix pk_fused_. */
#ifndef PK_FUSED_UTIL_H
#define PK_FUSED_UTIL_H

#include <stdint.h>

#include "ptera/kernel.h"

/* Argument i's tensor, or NULL when it is not one. */
static inline const ptera_tensor *pk_fused_tensor(ptera_value **args, size_t i) {
  return args[i]->tag == PTERA_TAG_TENSOR ? args[i]->u.tensor : NULL;
}

/* t is a Float tensor, contiguous, of a static shape. */
static inline bool pk_fused_f32(const ptera_tensor *t) {
  return t && t->dtype == PTERA_DTYPE_FLOAT && ptera_tensor_is_contiguous(t) &&
         t->dynamism == PTERA_SHAPE_STATIC;
}

/* [x, x + nx) and [y, y + ny) share a byte. */
static inline bool pk_fused_overlap(const void *x, size_t nx, const void *y, size_t ny) {
  uintptr_t a = (uintptr_t)x, b = (uintptr_t)y;
  return a < b + ny && b < a + nx;
}

#endif

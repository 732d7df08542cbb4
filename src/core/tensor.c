/* Tensor metadata helpers (EXECUTION.md §4.2, §4.4). */
#include "core/core.h"

bool pt_numel(const int32_t *sizes, size_t dim, uint64_t *out) {
  uint64_t n = 1;
  for (size_t i = 0; i < dim; i++) {
    if (sizes[i] < 0) return false;
    if (!pt_mul_u64(n, (uint64_t)sizes[i], &n)) return false;
  }
  *out = n;
  return true;
}

size_t ptera_tensor_nbytes(const ptera_tensor *t) {
  if (!t) return 0;
  return t->numel * ptera_dtype_size(t->dtype);
}

void ptera_tensor_update_strides(ptera_tensor *t) {
  if (!t || t->dim == 0 || t->dim > PTERA_MAX_DIM) return;
  int n = t->dim;
  t->strides[t->dim_order[n - 1]] = 1;
  for (int i = n - 2; i >= 0; i--) {
    int d = t->dim_order[i], dn = t->dim_order[i + 1];
    int64_t st = t->sizes[dn] == 0 ? t->strides[dn] : (int64_t)t->strides[dn] * t->sizes[dn];
    /* Callers keep numel below 2^31 (method load rejects larger tensors). */
    t->strides[d] = st > INT32_MAX ? INT32_MAX : (int32_t)st;
  }
}

bool ptera_tensor_is_contiguous(const ptera_tensor *t) {
  if (!t) return false;
  for (size_t i = 0; i < t->dim; i++)
    if (t->dim_order[i] != i) return false;
  return true;
}

ptera_status ptera_tensor_resize(ptera_tensor *t, size_t dim, const int32_t *sizes) {
  if (!t || (dim > 0 && !sizes)) return PTERA_INVALID_ARGUMENT;
  if (dim != t->dim) return PTERA_NOT_SUPPORTED; /* rank is immutable */
  if (dim == 0) return PTERA_OK;
  uint64_t numel;
  if (!pt_numel(sizes, dim, &numel)) return PTERA_INVALID_ARGUMENT;
  switch (t->dynamism) {
    case PTERA_SHAPE_STATIC:
      for (size_t i = 0; i < dim; i++)
        if (sizes[i] != t->sizes[i]) return PTERA_NOT_SUPPORTED;
      return PTERA_OK;
    case PTERA_SHAPE_DYNAMIC_BOUND: {
      uint64_t bytes;
      if (!pt_mul_u64(numel, ptera_dtype_size(t->dtype), &bytes) || bytes > t->capacity)
        return PTERA_NOT_SUPPORTED;
      for (size_t i = 0; i < dim; i++) t->sizes[i] = sizes[i];
      t->numel = (size_t)numel;
      ptera_tensor_update_strides(t);
      return PTERA_OK;
    }
    default:
      return PTERA_NOT_SUPPORTED;
  }
}

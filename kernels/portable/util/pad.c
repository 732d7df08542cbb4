#include <string.h>

#include "portable/util/pad.h"

ptera_status pk_pad_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                           size_t nargs, size_t k, bool reflect) {
  ptera_tensor *self, *out;
  int64_t pad[6];
  size_t np;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "padding", pad, 6, &np));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (np != 2 * k)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'padding' must have %zu entries, got %zu",
                             op, 2 * k, np);
  if (self->dim != k + 1 && self->dim != k + 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have rank %zu or %zu, got %u",
                             op, k + 1, k + 2, (unsigned)self->dim);
  size_t n = self->dim;
  int64_t lo[PTERA_MAX_DIM] = {0};
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t d = 0; d < n; d++) sizes[d] = self->sizes[d];
  for (size_t j = 0; j < k; j++) {
    size_t d = n - 1 - j;
    int64_t l = pad[2 * j], r = pad[2 * j + 1], s = self->sizes[d];
    if (l < 0 || r < 0)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'padding' must not be negative",
                               op);
    if (reflect ? (l >= s || r >= s) : (s == 0 && (l > 0 || r > 0)))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'padding' (%lld, %lld) is too large for dim %zu of size %lld",
                               op, (long long)l, (long long)r, d, (long long)s);
    if (s + l + r > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'padding' is too large", op);
    lo[d] = l;
    sizes[d] = (int32_t)(s + l + r);
  }
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  if (out->numel == 0) return PTERA_OK;
  size_t es = ptera_dtype_size(self->dtype);
  size_t idx[PTERA_MAX_DIM] = {0};
  char *dst = (char *)out->data;
  const char *src = (const char *)self->data;
  for (size_t e = 0; e < out->numel; e++) {
    int64_t doff = 0, soff = 0;
    for (size_t d = 0; d < n; d++) {
      int64_t i = (int64_t)idx[d] - lo[d], s = self->sizes[d];
      if (i < 0) i = reflect ? -i : 0;
      if (i >= s) i = reflect ? 2 * (s - 1) - i : s - 1;
      doff += (int64_t)idx[d] * out->strides[d];
      soff += i * self->strides[d];
    }
    memcpy(dst + doff * (int64_t)es, src + soff * (int64_t)es, es);
    for (size_t d = n; d-- > 0;) {
      if (++idx[d] < (size_t)out->sizes[d]) break;
      idx[d] = 0;
    }
  }
  return PTERA_OK;
}

#include "portable/util/pool_util.h"

ptera_status pk_get_spatial(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                            const char *name, size_t nsp, int64_t min, bool allow_empty,
                            const int64_t *def, int64_t *out) {
  int64_t buf[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_get_int_list(ctx, op, args, i, name, buf, PTERA_MAX_DIM, &n));
  if (n == 0 && allow_empty && def) {
    for (size_t k = 0; k < nsp; k++) out[k] = def[k];
    return PTERA_OK;
  }
  if (n != 1 && n != nsp)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' must have 1 or %zu values, got %zu",
                             op, name, nsp, n);
  for (size_t k = 0; k < nsp; k++) {
    out[k] = buf[n == 1 ? 0 : k];
    if (out[k] < min || out[k] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' value %lld is out of range",
                               op, name, (long long)out[k]);
  }
  return PTERA_OK;
}

int64_t pk_pool_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  int64_t num = in + 2 * p - d * (k - 1) - 1;
  if (num < 0) return 0;
  int64_t o = (ceil ? (num + s - 1) / s : num / s) + 1;
  if (ceil && (o - 1) * s >= in + p) o--; /* last window must start inside input or left pad */
  return o;
}

static ptera_status check_padding(ptera_kernel_ctx *ctx, const char *op, const int64_t *k,
                                 const int64_t *p) {
  for (int i = 0; i < 2; i++)
    if (p[i] > k[i] / 2)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'padding' %lld must be at most half of 'kernel_size' %lld", op,
                               (long long)p[i], (long long)k[i]);
  return PTERA_OK;
}

void pk_pool_shape(const ptera_tensor *t, int64_t oh, int64_t ow, int32_t *sizes) {
  size_t b = t->dim - 3;
  for (size_t i = 0; i < t->dim; i++) sizes[i] = t->sizes[i];
  sizes[b + 1] = (int32_t)oh;
  sizes[b + 2] = (int32_t)ow;
}

void pk_nchw_strides(const ptera_tensor *t, ptrdiff_t es, ptrdiff_t *st) {
  size_t b = t->dim - 3;
  st[0] = b ? t->strides[0] * es : 0;
  for (size_t i = 0; i < 3; i++) st[i + 1] = t->strides[b + i] * es;
}

ptera_status pk_pool_out_shape(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                               const int64_t *k, const int64_t *s, const int64_t *p,
                               const int64_t *d, bool ceil, int32_t *sizes) {
  if (in->dim != 3 && in->dim != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have rank 3 or 4, got %u",
                             op, (unsigned)in->dim);
  PK_TRY(check_padding(ctx, op, k, p));
  size_t b = in->dim - 3;
  int64_t H = in->sizes[b + 1], W = in->sizes[b + 2];
  int64_t OH = pk_pool_out_size(H, k[0], s[0], p[0], d[0], ceil);
  int64_t OW = pk_pool_out_size(W, k[1], s[1], p[1], d[1], ceil);
  if (OH <= 0 || OW <= 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: the output would be empty (input %lld x %lld too small)", op,
                             (long long)H, (long long)W);
  pk_pool_shape(in, OH, OW, sizes);
  return PTERA_OK;
}

/* aten::constant_pad_nd.out(Tensor self, SymInt[] pad, Scalar value=0, *,
 * Tensor(a!) out): pad = (left, right) pairs from the last dim backwards;
 * negative entries crop. New elements take value (which must fit out's dtype). */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_constant_pad_nd_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::constant_pad_nd.out";
  ptera_tensor *self, *out;
  int64_t pad[2 * PTERA_MAX_DIM];
  size_t np;
  pk_scalar v;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "pad", pad, 2 * PTERA_MAX_DIM, &np));
  PK_TRY(pk_get_scalar(ctx, op, args, 2, "value", &v));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (np % 2 != 0 || np / 2 > self->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'pad' has %zu entries; it needs an even count up to %u", op, np,
                             2u * self->dim);
  size_t n = self->dim;
  int32_t sizes[PTERA_MAX_DIM];
  int64_t lo[PTERA_MAX_DIM] = {0};
  for (size_t d = 0; d < n; d++) sizes[d] = self->sizes[d];
  for (size_t j = 0; j < np / 2; j++) {
    size_t d = n - 1 - j;
    int64_t l = pad[2 * j], r = pad[2 * j + 1];
    if (l < -(int64_t)INT32_MAX || r < -(int64_t)INT32_MAX || l > INT32_MAX || r > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'pad' entry is out of range", op);
    int64_t s = (int64_t)self->sizes[d] + l + r;
    if (s < 0 || s > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'pad' (%lld, %lld) gives dim %zu size %lld", op, (long long)l,
                               (long long)r, d, (long long)s);
    lo[d] = l;
    sizes[d] = (int32_t)s;
  }
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  PK_TRY(pk_fill_scalar(ctx, op, "out", out, &v));
  if (out->numel == 0) return PTERA_OK;
  /* copy the overlap of self (shifted by lo) and out */
  int64_t sz[PTERA_MAX_DIM], dstr[PTERA_MAX_DIM], sstr[PTERA_MAX_DIM], doff = 0, soff = 0;
  for (size_t d = 0; d < n; d++) {
    int64_t s0 = lo[d] < 0 ? -lo[d] : 0, d0 = lo[d] > 0 ? lo[d] : 0;
    int64_t len = self->sizes[d] - s0;
    if (len > out->sizes[d] - d0) len = out->sizes[d] - d0;
    if (len <= 0) return PTERA_OK;
    sz[d] = len;
    dstr[d] = out->strides[d];
    sstr[d] = self->strides[d];
    doff += d0 * out->strides[d];
    soff += s0 * self->strides[d];
  }
  pk_copy_region(out->data, out->dtype, dstr, doff, self->data, self->dtype, sstr, soff, n, sz);
  return PTERA_OK;
}

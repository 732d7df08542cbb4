/* aten::pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out):
 * [*, C, H*r, W*r] -> [*, C*r*r, H, W], the inverse of pixel_shuffle. */
#include "builtin.h"
#include "portable/util/adv_index.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

ptera_status pk_pixel_unshuffle_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::pixel_unshuffle.out";
  ptera_tensor *self, *out;
  int64_t r;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "downscale_factor", &r));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim < 3)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have rank >= 3, got %u",
                             op, (unsigned)self->dim);
  size_t n = self->dim;
  int64_t C = self->sizes[n - 3], H = self->sizes[n - 2], W = self->sizes[n - 1];
  if (r <= 0 || r > 65535 || H % r != 0 || W % r != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'downscale_factor' %lld must be positive and divide height %lld "
                             "and width %lld",
                             op, (long long)r, (long long)H, (long long)W);
  if (C * r * r > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: the result is too large", op);
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t k = 0; k < n; k++) sizes[k] = self->sizes[k];
  sizes[n - 3] = (int32_t)(C * r * r);
  sizes[n - 2] = (int32_t)(H / r);
  sizes[n - 1] = (int32_t)(W / r);
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  size_t es = ptera_dtype_size(self->dtype);
  int64_t oi[PTERA_MAX_DIM], si[PTERA_MAX_DIM];
  for (size_t e = 0; e < out->numel; e++) {
    pk_unflatten(e, out->sizes, n, oi);
    memcpy(si, oi, sizeof(int64_t) * n);
    int64_t c = oi[n - 3], h = oi[n - 2], w = oi[n - 1], rr = r * r;
    si[n - 3] = c / rr;
    si[n - 2] = h * r + (c % rr) / r;
    si[n - 1] = w * r + c % r;
    memcpy((char *)out->data + pk_idx_off(out, oi), (const char *)self->data + pk_idx_off(self, si), es);
  }
  return PTERA_OK;
}

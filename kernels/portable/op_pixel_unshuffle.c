/* aten::pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out):
 * [*, C, H*r, W*r] -> [*, C*r*r, H, W], the inverse of pixel_shuffle. */
#include "builtin.h"
#include "portable/util/pixel.h"
#include "portable/util/pk.h"

ptera_status pk_pixel_unshuffle_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::pixel_unshuffle.out";
  ptera_tensor *self, *out;
  int64_t r;
  PK_TRY(pk_pixel_args(ctx, op, args, nargs, "downscale_factor", &self, &r, &out));
  size_t n = self->dim;
  int64_t C = self->sizes[n - 3], H = self->sizes[n - 2], W = self->sizes[n - 1];
  if (r <= 0 || r > 65535 || H % r != 0 || W % r != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'downscale_factor' %lld must be positive and divide height %lld "
                             "and width %lld",
                             op, (long long)r, (long long)H, (long long)W);
  if (C * r * r > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: the result is too large", op);
  return pk_pixel_copy(ctx, op, out, self, r, C * r * r, H / r, W / r, true);
}

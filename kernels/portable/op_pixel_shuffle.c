/* aten::pixel_shuffle.out(Tensor self, int upscale_factor, *, Tensor(a!) out):
 * [*, C*r*r, H, W] -> [*, C, H*r, W*r];
 * out[..., c, h*r+i, w*r+j] = self[..., c*r*r + i*r + j, h, w]. */
#include "builtin.h"
#include "portable/util/pixel.h"
#include "portable/util/pk.h"

ptera_status pk_pixel_shuffle_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::pixel_shuffle.out";
  ptera_tensor *self, *out;
  int64_t r;
  PK_TRY(pk_pixel_args(ctx, op, args, nargs, "upscale_factor", &self, &r, &out));
  size_t n = self->dim;
  int64_t C = self->sizes[n - 3], H = self->sizes[n - 2], W = self->sizes[n - 1];
  if (r <= 0 || r > 65535 || C % (r * r) != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'upscale_factor' %lld must be positive and its square must divide "
                             "the channel count %lld",
                             op, (long long)r, (long long)C);
  if (H * r > INT32_MAX || W * r > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: the result is too large", op);
  return pk_pixel_copy(ctx, op, out, self, r, C / (r * r), H * r, W * r, false);
}

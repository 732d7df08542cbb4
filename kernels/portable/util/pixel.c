#include <string.h>

#include "portable/util/adv_index.h"
#include "portable/util/index_ext.h"
#include "portable/util/pixel.h"
#include "portable/util/pk.h"

ptera_status pk_pixel_args(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t nargs,
                           const char *factor, ptera_tensor **self, int64_t *r, ptera_tensor **out) {
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", self));
  PK_TRY(pk_get_int(ctx, op, args, 1, factor, r));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", *self, "out", *out));
  if ((*self)->dim < 3)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have rank >= 3, got %u",
                             op, (unsigned)(*self)->dim);
  return PTERA_OK;
}

ptera_status pk_pixel_copy(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *out,
                           const ptera_tensor *self, int64_t r, int64_t C, int64_t H, int64_t W,
                           bool unshuffle) {
  size_t n = self->dim;
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t k = 0; k < n; k++) sizes[k] = self->sizes[k];
  sizes[n - 3] = (int32_t)C;
  sizes[n - 2] = (int32_t)H;
  sizes[n - 1] = (int32_t)W;
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  size_t es = ptera_dtype_size(self->dtype);
  int64_t oi[PTERA_MAX_DIM], si[PTERA_MAX_DIM], rr = r * r;
  for (size_t e = 0; e < out->numel; e++) {
    pk_unflatten(e, out->sizes, n, oi);
    memcpy(si, oi, sizeof(int64_t) * n);
    int64_t c = oi[n - 3], h = oi[n - 2], w = oi[n - 1];
    if (unshuffle) {
      si[n - 3] = c / rr;
      si[n - 2] = h * r + (c % rr) / r;
      si[n - 1] = w * r + c % r;
    } else {
      si[n - 3] = c * rr + (h % r) * r + (w % r);
      si[n - 2] = h / r;
      si[n - 1] = w / r;
    }
    memcpy((char *)out->data + pk_idx_off(out, oi), (const char *)self->data + pk_idx_off(self, si), es);
  }
  return PTERA_OK;
}

#include "portable/util/split.h"

ptera_status pk_split_into(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *self,
                           size_t d, ptera_tensor **outs, const int64_t *lens, size_t n,
                           bool drop_dim) {
  int64_t at = 0;
  for (size_t k = 0; k < n; k++) {
    ptera_tensor *o = outs[k];
    if (o->dtype != self->dtype)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'out'[%zu] has dtype %s but 'self' has %s", op, k,
                               ptera_dtype_name(o->dtype), ptera_dtype_name(self->dtype));
    int32_t sizes[PTERA_MAX_DIM];
    int64_t vstr[PTERA_MAX_DIM];
    size_t m = 0;
    for (size_t i = 0; i < self->dim; i++) {
      if (i == d && drop_dim) continue;
      sizes[m] = i == d ? (int32_t)lens[k] : self->sizes[i];
      vstr[m++] = self->strides[i];
    }
    PK_TRY(pk_resize(ctx, op, "out", o, m, sizes));
    if (lens[k] > 0) pk_copy_view(o, self, vstr, at * self->strides[d]);
    at += lens[k];
  }
  return PTERA_OK;
}

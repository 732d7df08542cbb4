/* aten::tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out): keeps
 * self[..., i, j] where j - i <= diagonal and zeroes the rest (rank >= 2). */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_tril_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::tril.out";
  ptera_tensor *self, *out;
  int64_t diag;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "diagonal", &diag));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim < 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has rank %u, below 2", op,
                             (unsigned)self->dim);
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  if (out->numel == 0) return PTERA_OK;
  size_t n = self->dim, es = ptera_dtype_size(self->dtype);
  size_t idx[PTERA_MAX_DIM] = {0};
  char *dst = (char *)out->data;
  const char *src = (const char *)self->data;
  for (size_t k = 0; k < out->numel; k++) {
    int64_t doff = 0, soff = 0;
    for (size_t d = 0; d < n; d++) {
      doff += (int64_t)idx[d] * out->strides[d];
      soff += (int64_t)idx[d] * self->strides[d];
    }
    if ((int64_t)idx[n - 1] - (int64_t)idx[n - 2] <= diag)
      memcpy(dst + doff * (int64_t)es, src + soff * (int64_t)es, es);
    else
      memset(dst + doff * (int64_t)es, 0, es); /* all-zero bytes are 0 in every dtype */
    for (size_t d = n; d-- > 0;) {
      if (++idx[d] < (size_t)out->sizes[d]) break;
      idx[d] = 0;
    }
  }
  return PTERA_OK;
}

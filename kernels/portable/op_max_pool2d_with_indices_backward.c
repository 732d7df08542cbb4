/* aten::max_pool2d_with_indices_backward.grad_input(Tensor grad_output, Tensor self,
 * int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode,
 * Tensor indices, *, Tensor(a!) grad_input): grad_input has self's shape, zero
 * except grad_input[n, c, indices[n,c,oy,ox]] += grad_output[n,c,oy,ox] (indices
 * are flat h*W+w offsets in each plane, as max_pool2d_with_indices writes them). */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"
#include "portable/util/pool_util.h"

ptera_status pk_max_pool2d_with_indices_backward_grad_input(ptera_kernel_ctx *ctx, ptera_value **args,
                                                            size_t nargs) {
  static const char op[] = "aten::max_pool2d_with_indices_backward.grad_input";
  ptera_tensor *go, *self, *idx, *gi;
  bool ceil_mode;
  int64_t k[2], s[2], p[2], d[2];
  PK_TRY(pk_check_nargs(ctx, op, nargs, 10));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "grad_output", &go));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "self", &self));
  PK_TRY(pk_get_spatial(ctx, op, args, 2, "kernel_size", 2, 1, false, NULL, k));
  PK_TRY(pk_get_spatial(ctx, op, args, 3, "stride", 2, 1, true, k, s));
  PK_TRY(pk_get_spatial(ctx, op, args, 4, "padding", 2, 0, false, NULL, p));
  PK_TRY(pk_get_spatial(ctx, op, args, 5, "dilation", 2, 1, false, NULL, d));
  PK_TRY(pk_get_bool(ctx, op, args, 6, "ceil_mode", &ceil_mode));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "indices", &idx));
  PK_TRY(pk_get_tensor(ctx, op, args, 8, "grad_input", &gi));
  PK_TRY(pk_check_float(ctx, op, "self", self));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "grad_output", go));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "grad_input", gi));
  PK_TRY(pk_check_dtype(ctx, op, "indices", idx, PTERA_DTYPE_LONG));
  if (self->dim != 3 && self->dim != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have rank 3 or 4, got %u",
                             op, (unsigned)self->dim);
  size_t b = self->dim - 3u;
  int64_t H = self->sizes[b + 1], W = self->sizes[b + 2];
  int32_t want[4];
  pk_pool_shape(self, pk_pool_out_size(H, k[0], s[0], p[0], d[0], ceil_mode),
                pk_pool_out_size(W, k[1], s[1], p[1], d[1], ceil_mode), want);
  bool ok = go->dim == self->dim && idx->dim == self->dim;
  for (size_t i = 0; ok && i < self->dim; i++) ok = go->sizes[i] == want[i] && idx->sizes[i] == want[i];
  if (!ok) {
    char a[128], c[128];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'grad_output' and 'indices' must have the pooled shape %s, got %s", op,
                             pk_fmt_shape(c, sizeof c, want, self->dim),
                             pk_fmt_shape(a, sizeof a, go->sizes, go->dim));
  }
  /* validate indices before writing */
  for (size_t e = 0; e < idx->numel; e++) {
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "indices", (const char *)idx->data + pk_flat_off(idx, e),
                             PTERA_DTYPE_LONG, H * W, false, &v));
  }
  PK_TRY(pk_resize_like(ctx, op, "grad_input", gi, self));
  if (gi->numel == 0) return PTERA_OK;
  size_t es = ptera_dtype_size(gi->dtype);
  char zero[16] = {0};
  for (size_t e = 0; e < gi->numel; e++) memcpy((char *)gi->data + pk_flat_off(gi, e), zero, es);
  int64_t N = b ? self->sizes[0] : 1, C = self->sizes[b], OH = want[b + 1], OW = want[b + 2];
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++)
      for (int64_t oy = 0; oy < OH; oy++)
        for (int64_t ox = 0; ox < OW; ox++) {
          int64_t oi[4], ii[4];
          size_t q = 0;
          if (b) oi[q++] = n;
          oi[q++] = c;
          oi[q++] = oy;
          oi[q++] = ox;
          int64_t v = *(const int64_t *)((const char *)idx->data + pk_idx_off(idx, oi));
          memcpy(ii, oi, sizeof ii);
          ii[b + 1] = v / W;
          ii[b + 2] = v % W;
          pk_accumulate_elem((char *)gi->data + pk_idx_off(gi, ii),
                             (const char *)go->data + pk_idx_off(go, oi), gi->dtype);
        }
  return PTERA_OK;
}

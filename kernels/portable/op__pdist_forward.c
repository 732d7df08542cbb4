/* aten::_pdist_forward.out(Tensor self, float p=2., *, Tensor(a!) out): self [N, M]
 * (floating); out [N*(N-1)/2] holds ||self[i] - self[j]||_p for i < j in row-major
 * pair order. p >= 0 (inf allowed). */
#include "builtin.h"
#include "portable/util/dist.h"
#include "portable/util/pk.h"

ptera_status pk_pdist_forward_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::_pdist_forward.out";
  ptera_tensor *self, *out;
  double p;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_double(ctx, op, args, 1, "p", &p));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "self", self));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim != 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has rank %u, not 2", op,
                             (unsigned)self->dim);
  if (!(p >= 0.0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'p' %g must be non-negative", op, p);
  int64_t N = self->sizes[0], M = self->sizes[1];
  int64_t pairs = N > 1 ? N * (N - 1) / 2 : 0;
  if (pairs > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: %lld pairs is too many", op,
                             (long long)pairs);
  int32_t size = (int32_t)pairs;
  PK_TRY(pk_resize(ctx, op, "out", out, 1, &size));
  if (pairs == 0) return PTERA_OK;
  int dt = self->dtype;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);
  ptrdiff_t s0 = self->strides[0] * es, s1 = self->strides[1] * es, os = out->strides[0] * es;
  const char *x = (const char *)self->data;
  int64_t k = 0;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = i + 1; j < N; j++, k++)
      pk_pnorm_dist((char *)out->data + k * os, x + i * s0, s1, x + j * s0, s1, M, p, dt);
  return PTERA_OK;
}

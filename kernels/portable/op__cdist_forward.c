/* aten::_cdist_forward.out(Tensor x1, Tensor x2, float p, int? compute_mode, *,
 * Tensor(a!) out): x1 [..., P, M], x2 [..., R, M] (floating, same dtype; batch
 * dims broadcast); out [..., P, R] = ||x1[..., i, :] - x2[..., j, :]||_p, p >= 0.
 * compute_mode only picks an algorithm in PyTorch; it is ignored. */
#include "builtin.h"
#include "portable/util/dist.h"
#include "portable/util/pk.h"

ptera_status pk_cdist_forward_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::_cdist_forward.out";
  ptera_tensor *x1, *x2, *out;
  double p;
  int64_t mode;
  bool has_mode;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "x1", &x1));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "x2", &x2));
  PK_TRY(pk_get_double(ctx, op, args, 2, "p", &p));
  PK_TRY(pk_get_opt_int(ctx, op, args, 3, "compute_mode", &mode, &has_mode));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "x1", x1));
  PK_TRY(pk_check_same_dtype(ctx, op, "x1", x1, "x2", x2));
  PK_TRY(pk_check_same_dtype(ctx, op, "x1", x1, "out", out));
  if (!(p >= 0.0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'p' %g must be non-negative", op, p);
  if (has_mode && (mode < 0 || mode > 2))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'compute_mode' %lld is not 0, 1 or 2",
                             op, (long long)mode);
  if (x1->dim < 2 || x2->dim < 2 || x1->sizes[x1->dim - 1] != x2->sizes[x2->dim - 1]) {
    char s1[96], s2[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'x1' %s and 'x2' %s must be [..., P, M] and [..., R, M]", op,
                             pk_fmt_shape(s1, sizeof s1, x1->sizes, x1->dim),
                             pk_fmt_shape(s2, sizeof s2, x2->sizes, x2->dim));
  }
  size_t b1 = x1->dim - 2u, b2 = x2->dim - 2u, nb = b1 > b2 ? b1 : b2;
  int32_t sizes[PTERA_MAX_DIM];
  int64_t st1[PTERA_MAX_DIM], st2[PTERA_MAX_DIM];
  for (size_t d = 0; d < nb; d++) {
    int64_t s1 = d + b1 >= nb ? x1->sizes[d + b1 - nb] : 1;
    int64_t s2 = d + b2 >= nb ? x2->sizes[d + b2 - nb] : 1;
    if (s1 != s2 && s1 != 1 && s2 != 1)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: batch dims of 'x1' and 'x2' do not broadcast (%lld vs %lld)",
                               op, (long long)s1, (long long)s2);
    sizes[d] = (int32_t)(s1 == 1 ? s2 : s1);
    st1[d] = s1 == 1 ? 0 : x1->strides[d + b1 - nb];
    st2[d] = s2 == 1 ? 0 : x2->strides[d + b2 - nb];
  }
  int64_t P = x1->sizes[b1], R = x2->sizes[b2], M = x1->sizes[b1 + 1];
  sizes[nb] = (int32_t)P;
  sizes[nb + 1] = (int32_t)R;
  PK_TRY(pk_resize(ctx, op, "out", out, nb + 2, sizes));
  if (out->numel == 0) return PTERA_OK;
  int dt = x1->dtype;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);
  ptrdiff_t a0 = x1->strides[b1] * es, a1 = x1->strides[b1 + 1] * es;
  ptrdiff_t c0 = x2->strides[b2] * es, c1 = x2->strides[b2 + 1] * es;
  ptrdiff_t o0 = out->strides[nb] * es, o1 = out->strides[nb + 1] * es;
  size_t batches = out->numel / ((size_t)P * (size_t)R);
  size_t idx[PTERA_MAX_DIM] = {0};
  for (size_t bi = 0; bi < batches; bi++) {
    int64_t f1 = 0, f2 = 0, fo = 0;
    for (size_t d = 0; d < nb; d++) {
      f1 += (int64_t)idx[d] * st1[d];
      f2 += (int64_t)idx[d] * st2[d];
      fo += (int64_t)idx[d] * out->strides[d];
    }
    const char *A = (const char *)x1->data + f1 * es, *B = (const char *)x2->data + f2 * es;
    char *O = (char *)out->data + fo * es;
    for (int64_t i = 0; i < P; i++)
      for (int64_t j = 0; j < R; j++)
        pk_pnorm_dist(O + i * o0 + j * o1, A + i * a0, a1, B + j * c0, c1, M, p, dt);
    for (size_t d = nb; d-- > 0;) {
      if (++idx[d] < (size_t)sizes[d]) break;
      idx[d] = 0;
    }
  }
  return PTERA_OK;
}

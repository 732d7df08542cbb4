/* aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1,
 * Tensor(a!) out): out = beta * self + alpha * (mat1 @ mat2); self broadcasts to [n, m]. */
#include "builtin.h"
#include "portable/util/matmul.h"
#include "portable/util/matmul_fast.h"
#include "portable/util/pk.h"

/* Packs a constant float32 mat2 (any strides: a stored-transposed weight
 * too) and declares the workspace; self is read at run. */
ptera_status pk_addmm_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  const ptera_tensor *a = pk_mm_arg(args, nargs, 1), *b = pk_mm_arg(args, nargs, 2);
  pk_mm_view av, bv;
  if (!a || !b || a->dim != 2 || b->dim != 2 || !pk_mm_view_rows(a, &av) ||
      !pk_mm_view_rows(b, &bv) || av.cols != bv.rows)
    return PTERA_OK;
  return pk_mm_prepare(ctx, av.rows, &bv, pk_mm_const(b));
}

ptera_status pk_addmm_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::addmm.out";
  ptera_tensor *self, *a, *b, *out;
  pk_scalar beta, alpha;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 7));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "mat1", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "mat2", &b));
  PK_TRY(pk_get_scalar(ctx, op, args, 3, "beta", &beta));
  PK_TRY(pk_get_scalar(ctx, op, args, 4, "alpha", &alpha));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "mat1", a));
  PK_TRY(pk_check_same_dtype(ctx, op, "mat1", a, "mat2", b));
  PK_TRY(pk_check_same_dtype(ctx, op, "mat1", a, "self", self));
  PK_TRY(pk_check_same_dtype(ctx, op, "mat1", a, "out", out));
  if (!pk_is_float(a->dtype) &&
      (alpha.tag == PTERA_TAG_DOUBLE || beta.tag == PTERA_TAG_DOUBLE))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: floating 'alpha'/'beta' with integer tensors", op);
  if (a->dim != 2 || b->dim != 2 || a->sizes[1] != b->sizes[0]) {
    char s1[96], s2[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: cannot multiply 'mat1' %s by 'mat2' %s (need [n, k] and [k, m])",
                             op, pk_fmt_shape(s1, sizeof s1, a->sizes, a->dim),
                             pk_fmt_shape(s2, sizeof s2, b->sizes, b->dim));
  }
  int32_t sizes[2] = {a->sizes[0], b->sizes[1]};
  if (!pk_can_broadcast_to(self, sizes, 2)) {
    char s1[96], s2[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'self' of shape %s does not broadcast to the result shape %s", op,
                             pk_fmt_shape(s1, sizeof s1, self->sizes, self->dim),
                             pk_fmt_shape(s2, sizeof s2, sizes, 2));
  }
  PK_TRY(pk_resize(ctx, op, "out", out, 2, sizes));
  if (out->numel == 0) return PTERA_OK;
  /* The GEMM takes alpha == 1 with beta == 0 (self ignored) or beta == 1 and
   * self a row of N; other scalings and broadcasts stay portable. */
  double al = pk_scalar_f64(&alpha), be = pk_scalar_f64(&beta);
  const float *bn = be == 1.0 ? pk_mm_bias_n(self, (size_t)sizes[1]) : NULL;
  pk_mm_view av, bv, ov;
  void *ws = NULL;
  if (al == 1.0 && (be == 0.0 || bn) && pk_mm_view_rows(a, &av) && pk_mm_view_rows(b, &bv) &&
      pk_mm_view_rows(out, &ov) && pk_mm_run(ctx, &av, &bv, bn, &ov, &ws))
    return PTERA_OK;
  pk_matmul(a, b, out, self, pk_scalar_f64(&alpha), pk_scalar_f64(&beta));
  return PTERA_OK;
}

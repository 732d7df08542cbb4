/* aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out): [n,k] @ [k,m]. */
#include "builtin.h"
#include "portable/util/matmul.h"
#include "portable/util/matmul_fast.h"
#include "portable/util/pk.h"

/* Packs a constant float32 mat2 (any strides: a stored-transposed weight
 * too) and declares the workspace. */
ptera_status pk_mm_prepare_op(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  const ptera_tensor *a = pk_mm_arg(args, nargs, 0), *b = pk_mm_arg(args, nargs, 1);
  pk_mm_view av, bv;
  if (!a || !b || a->dim != 2 || b->dim != 2 || !pk_mm_view_rows(a, &av) ||
      !pk_mm_view_rows(b, &bv) || av.cols != bv.rows)
    return PTERA_OK;
  return pk_mm_prepare(ctx, av.rows, &bv, pk_mm_const(b));
}

ptera_status pk_mm_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::mm.out";
  ptera_tensor *a, *b, *out;
  PK_TRY(pk_matmul_get_args(ctx, op, args, nargs, &a, &b, &out));
  if (a->dim != 2 || b->dim != 2 || a->sizes[1] != b->sizes[0]) {
    char s1[96], s2[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: cannot multiply 'self' %s by 'mat2' %s (need [n, k] and [k, m])",
                             op, pk_fmt_shape(s1, sizeof s1, a->sizes, a->dim),
                             pk_fmt_shape(s2, sizeof s2, b->sizes, b->dim));
  }
  int32_t sizes[2] = {a->sizes[0], b->sizes[1]};
  PK_TRY(pk_resize(ctx, op, "out", out, 2, sizes));
  pk_mm_view av, bv, ov;
  void *ws = NULL;
  if (out->numel == 0 || (pk_mm_view_rows(a, &av) && pk_mm_view_rows(b, &bv) &&
                          pk_mm_view_rows(out, &ov) && pk_mm_run(ctx, &av, &bv, NULL, &ov, &ws)))
    return PTERA_OK;
  pk_matmul(a, b, out, NULL, 1.0, 0.0);
  return PTERA_OK;
}

/* aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out): [b,n,k] @ [b,k,m]
 * per batch (one real dtype, accumulated like mm). */
#include "builtin.h"
#include "portable/util/matmul.h"
#include "portable/util/matmul_fast.h"
#include "portable/util/pk.h"

/* The 2-D slice t[i] as a tensor header (no copy). */
static ptera_tensor slice2d(const ptera_tensor *t, int64_t i) {
  ptera_tensor v;
  memset(&v, 0, sizeof v);
  v.dtype = t->dtype;
  v.dim = 2;
  /* At prepare an activation has no memory yet: keep NULL, not NULL + 0. */
  v.data = t->data ? (char *)t->data + i * t->strides[0] * (int64_t)ptera_dtype_size(t->dtype) : NULL;
  v.sizes[0] = t->sizes[1];
  v.sizes[1] = t->sizes[2];
  v.strides[0] = t->strides[1];
  v.strides[1] = t->strides[2];
  v.numel = (size_t)t->sizes[1] * (size_t)t->sizes[2];
  return v;
}

/* Declares the workspace of one batch's product (packed on the fly). */
ptera_status pk_bmm_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  const ptera_tensor *a = pk_mm_arg(args, nargs, 0), *b = pk_mm_arg(args, nargs, 1);
  if (!a || !b || a->dim != 3 || b->dim != 3 || a->sizes[0] < 1 || a->sizes[2] != b->sizes[1])
    return PTERA_OK;
  ptera_tensor a0 = slice2d(a, 0), b0 = slice2d(b, 0);
  pk_mm_view av, bv;
  if (!pk_mm_view_rows(&a0, &av) || !pk_mm_view_rows(&b0, &bv)) return PTERA_OK;
  return pk_mm_prepare(ctx, av.rows, &bv, false);
}

/* Every batch through the GEMM, sharing one workspace; false (nothing
 * written) when the first cannot run. */
static bool bmm_fast(ptera_kernel_ctx *ctx, const ptera_tensor *a, const ptera_tensor *b,
                     const ptera_tensor *out) {
  void *ws = NULL;
  for (int64_t i = 0; i < out->sizes[0]; i++) {
    ptera_tensor at = slice2d(a, i), bt = slice2d(b, i), ot = slice2d(out, i);
    pk_mm_view av, bv, ov;
    if (!pk_mm_view_rows(&at, &av) || !pk_mm_view_rows(&bt, &bv) || !pk_mm_view_rows(&ot, &ov) ||
        !pk_mm_run(ctx, &av, &bv, NULL, &ov, &ws))
      return false;
  }
  return true;
}

ptera_status pk_bmm_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::bmm.out";
  ptera_tensor *a, *b, *out;
  PK_TRY(pk_matmul_get_args(ctx, op, args, nargs, &a, &b, &out));
  if (a->dim != 3 || b->dim != 3 || a->sizes[0] != b->sizes[0] || a->sizes[2] != b->sizes[1]) {
    char s1[96], s2[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: cannot multiply 'self' %s by 'mat2' %s (need [b, n, k] and "
                             "[b, k, m])",
                             op, pk_fmt_shape(s1, sizeof s1, a->sizes, a->dim),
                             pk_fmt_shape(s2, sizeof s2, b->sizes, b->dim));
  }
  int32_t sizes[3] = {a->sizes[0], a->sizes[1], b->sizes[2]};
  PK_TRY(pk_resize(ctx, op, "out", out, 3, sizes));
  if (out->numel == 0 || bmm_fast(ctx, a, b, out)) return PTERA_OK;
  for (int64_t i = 0; i < sizes[0]; i++) {
    ptera_tensor av = slice2d(a, i), bv = slice2d(b, i), ov = slice2d(out, i);
    pk_matmul(&av, &bv, &ov, NULL, 1.0, 0.0);
  }
  return PTERA_OK;
}

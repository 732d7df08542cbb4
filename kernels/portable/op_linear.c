/* aten::linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out):
 * out[..., o] = sum_i input[..., i] * weight[o, i] (+ bias[o]); input [..., in]
 * (rank >= 1), weight [out_features, in], bias broadcastable to [out_features];
 * one real dtype throughout, accumulated like mm. */
#include "builtin.h"
#include "portable/util/matmul.h"
#include "portable/util/matmul_fast.h"
#include "portable/util/pk.h"

/* Packs a constant float32 weight as B = weight^T and declares the workspace. */
ptera_status pk_linear_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  const ptera_tensor *in = pk_mm_arg(args, nargs, 0), *w = pk_mm_arg(args, nargs, 1);
  pk_mm_view av, bv;
  if (!in || !w || !pk_mm_view_rows(in, &av) || !pk_mm_view_t(w, &bv) || av.cols != bv.rows)
    return PTERA_OK;
  return pk_mm_prepare(ctx, av.rows, &bv, pk_mm_const(w));
}

ptera_status pk_linear_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::linear.out";
  ptera_tensor *in, *w, *bias, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "bias", &bias));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_matmul_check_dtypes(ctx, op, "input", in, "weight", w, out));
  if (bias) PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "bias", bias));
  if (in->dim < 1 || w->dim != 2 || in->sizes[in->dim - 1] != w->sizes[1]) {
    char s1[96], s2[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' %s does not match 'weight' %s (need [..., in] and "
                             "[out, in])",
                             op, pk_fmt_shape(s1, sizeof s1, in->sizes, in->dim),
                             pk_fmt_shape(s2, sizeof s2, w->sizes, w->dim));
  }
  int32_t of = w->sizes[0];
  if (bias && (bias->dim > 1 || (bias->dim == 1 && bias->sizes[0] != of && bias->sizes[0] != 1))) {
    char s1[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'bias' %s does not broadcast to [%d]", op,
                             pk_fmt_shape(s1, sizeof s1, bias->sizes, bias->dim), (int)of);
  }
  int32_t sizes[PTERA_MAX_DIM];
  size_t n = in->dim;
  for (size_t d = 0; d + 1 < n; d++) sizes[d] = in->sizes[d];
  sizes[n - 1] = of;
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  if (out->numel == 0) return PTERA_OK;
  pk_mm_view xv, wv, yv;
  const float *bn = bias ? pk_mm_bias_n(bias, (size_t)of) : NULL;
  void *ws = NULL;
  if ((!bias || bn) && pk_mm_view_rows(in, &xv) && pk_mm_view_t(w, &wv) &&
      pk_mm_view_rows(out, &yv) && pk_mm_run(ctx, &xv, &wv, bn, &yv, &ws))
    return PTERA_OK;
  size_t es = ptera_dtype_size(in->dtype);
  ptera_tensor wt, av, ov;
  memset(&wt, 0, sizeof wt);
  wt.dtype = w->dtype;
  wt.dim = 2;
  wt.data = w->data;
  wt.sizes[0] = w->sizes[1];
  wt.sizes[1] = w->sizes[0];
  wt.strides[0] = w->strides[1];
  wt.strides[1] = w->strides[0];
  av = wt;
  ov = wt;
  av.sizes[0] = 1;
  av.sizes[1] = in->sizes[n - 1];
  av.strides[0] = 0;
  av.strides[1] = in->strides[n - 1];
  ov.sizes[0] = 1;
  ov.sizes[1] = of;
  ov.strides[0] = 0;
  ov.strides[1] = out->strides[n - 1];
  size_t rows = out->numel / (size_t)of;
  size_t idx[PTERA_MAX_DIM] = {0};
  for (size_t r = 0; r < rows; r++) {
    int64_t ioff = 0, ooff = 0;
    for (size_t d = 0; d + 1 < n; d++) {
      ioff += (int64_t)idx[d] * in->strides[d];
      ooff += (int64_t)idx[d] * out->strides[d];
    }
    av.data = (char *)in->data + ioff * (int64_t)es;
    ov.data = (char *)out->data + ooff * (int64_t)es;
    pk_matmul(&av, &wt, &ov, bias, 1.0, bias ? 1.0 : 0.0);
    for (size_t d = n - 1; d-- > 0;) {
      if (++idx[d] < (size_t)in->sizes[d]) break;
      idx[d] = 0;
    }
  }
  return PTERA_OK;
}

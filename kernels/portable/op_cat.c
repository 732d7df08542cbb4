/* aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out): concatenates
 * along dim. 1-D empty tensors are skipped (legacy PyTorch behaviour), and so,
 * as in ExecuTorch, is any empty tensor whose shape does not match; every
 * input dtype must cast to out's dtype. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

/* t matches ref everywhere but dim d. */
static bool matches(const ptera_tensor *t, const ptera_tensor *ref, size_t d) {
  if (t->dim != ref->dim) return false;
  for (size_t i = 0; i < t->dim; i++)
    if (i != d && t->sizes[i] != ref->sizes[i]) return false;
  return true;
}

/* t takes no part in the result. */
static bool skipped(const ptera_tensor *t, const ptera_tensor *ref, size_t d) {
  if (t->dim == 1 && t->numel == 0) return true;
  return t->numel == 0 && !matches(t, ref, d);
}

ptera_status pk_cat_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::cat.out";
  ptera_tensor **ts, *out;
  size_t n;
  int64_t dim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor_list(ctx, op, args, 0, "tensors", &ts, &n));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  if (n == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'tensors' is empty", op);
  const ptera_tensor *ref = NULL;
  for (size_t k = 0; k < n; k++) {
    if (!pk_can_cast(ts[k]->dtype, out->dtype) ||
        (ts[k]->dtype != out->dtype && !(pk_is_real_or_bool(ts[k]->dtype) &&
                                         pk_is_real_or_bool(out->dtype))))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'tensors'[%zu] has dtype %s, which cannot be cast to 'out' "
                               "dtype %s",
                               op, k, ptera_dtype_name(ts[k]->dtype), ptera_dtype_name(out->dtype));
    if (!ref && !(ts[k]->dim == 1 && ts[k]->numel == 0)) ref = ts[k];
  }
  /* prefer the first non-empty tensor as the reference */
  for (size_t k = 0; k < n; k++)
    if (ts[k]->numel > 0) {
      ref = ts[k];
      break;
    }
  if (!ref) {
    /* only legacy empty tensors */
    size_t d;
    PK_TRY(pk_norm_dim(ctx, op, "dim", dim, 1, &d));
    int32_t zero[1] = {0};
    return pk_resize(ctx, op, "out", out, 1, zero);
  }
  if (ref->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'tensors' holds a 0-d tensor, which cannot be concatenated", op);
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, ref->dim, &d));
  int64_t total = 0;
  for (size_t k = 0; k < n; k++) {
    const ptera_tensor *t = ts[k];
    if (skipped(t, ref, d)) continue;
    if (!matches(t, ref, d)) {
      char a[128], b[128];
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'tensors'[%zu] has shape %s, which does not match %s outside "
                               "dim %zu",
                               op, k, pk_fmt_shape(a, sizeof a, t->sizes, t->dim),
                               pk_fmt_shape(b, sizeof b, ref->sizes, ref->dim), d);
    }
    total += t->sizes[d];
  }
  if (total > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'out' would have %lld along dim",
                             op, (long long)total);
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t i = 0; i < ref->dim; i++) sizes[i] = ref->sizes[i];
  sizes[d] = (int32_t)total;
  PK_TRY(pk_resize(ctx, op, "out", out, ref->dim, sizes));
  if (out->numel == 0) return PTERA_OK;
  int64_t at = 0;
  for (size_t k = 0; k < n; k++) {
    const ptera_tensor *t = ts[k];
    if (skipped(t, ref, d)) continue;
    int64_t sz[PTERA_MAX_DIM], dstr[PTERA_MAX_DIM], sstr[PTERA_MAX_DIM];
    for (size_t i = 0; i < t->dim; i++) {
      size_t j = out->dim_order[i];
      sz[i] = t->sizes[j];
      dstr[i] = out->strides[j];
      sstr[i] = t->strides[j];
    }
    pk_copy_region(out->data, out->dtype, dstr, at * out->strides[d], t->data, t->dtype, sstr, 0,
                   t->dim, sz);
    at += t->sizes[d];
  }
  return PTERA_OK;
}

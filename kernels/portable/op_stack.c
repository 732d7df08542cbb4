/* aten::stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out): joins tensors of
 * one shape along a new dim; every input dtype must cast to out's dtype. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_stack_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::stack.out";
  ptera_tensor **ts, *out;
  size_t n;
  int64_t dim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor_list(ctx, op, args, 0, "tensors", &ts, &n));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  if (n == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'tensors' is empty", op);
  if (n > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'tensors' is too long", op);
  const ptera_tensor *ref = ts[0];
  if (ref->dim >= PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'tensors' have rank %d already", op,
                             PTERA_MAX_DIM);
  for (size_t k = 0; k < n; k++) {
    const ptera_tensor *t = ts[k];
    if (!pk_can_cast(t->dtype, out->dtype) ||
        (t->dtype != out->dtype &&
         !(pk_is_real_or_bool(t->dtype) && pk_is_real_or_bool(out->dtype))))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'tensors'[%zu] has dtype %s, which cannot be cast to 'out' "
                               "dtype %s",
                               op, k, ptera_dtype_name(t->dtype), ptera_dtype_name(out->dtype));
    bool ok = t->dim == ref->dim;
    for (size_t i = 0; ok && i < t->dim; i++) ok = t->sizes[i] == ref->sizes[i];
    if (!ok) {
      char a[128], b[128];
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'tensors'[%zu] has shape %s, 'tensors'[0] has %s", op, k,
                               pk_fmt_shape(a, sizeof a, t->sizes, t->dim),
                               pk_fmt_shape(b, sizeof b, ref->sizes, ref->dim));
    }
  }
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, ref->dim + 1u, &d));
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t i = 0, j = 0; i <= ref->dim; i++) sizes[i] = i == d ? (int32_t)n : ref->sizes[j++];
  PK_TRY(pk_resize(ctx, op, "out", out, ref->dim + 1u, sizes));
  if (out->numel == 0) return PTERA_OK;
  int64_t sz[PTERA_MAX_DIM], dstr[PTERA_MAX_DIM], sstr[PTERA_MAX_DIM];
  for (size_t k = 0; k < n; k++) {
    const ptera_tensor *t = ts[k];
    for (size_t i = 0; i < t->dim; i++) {
      sz[i] = t->sizes[i];
      dstr[i] = out->strides[i < d ? i : i + 1];
      sstr[i] = t->strides[i];
    }
    pk_copy_region(out->data, out->dtype, dstr, (int64_t)k * out->strides[d], t->data, t->dtype,
                   sstr, 0, t->dim, sz);
  }
  return PTERA_OK;
}

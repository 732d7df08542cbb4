/* aten::copy.out(Tensor self, Tensor src, bool non_blocking=False, *, Tensor(a!) out)
 * aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False)
 * src is broadcast to self's shape and converted to self's dtype. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

/* Writes src (broadcast to dst's shape) into dst. */
static ptera_status copy_into(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *dst,
                              const ptera_tensor *src) {
  if (dst->dtype != src->dtype &&
      !(pk_is_real_or_bool(dst->dtype) && pk_is_real_or_bool(src->dtype)))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'src' dtype %s cannot be copied to dtype %s", op,
                             ptera_dtype_name(src->dtype), ptera_dtype_name(dst->dtype));
  if (!pk_can_broadcast_to(src, dst->sizes, dst->dim)) {
    char a[128], b[128];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'src' shape %s does not broadcast to 'self' shape %s", op,
                             pk_fmt_shape(a, sizeof a, src->sizes, src->dim),
                             pk_fmt_shape(b, sizeof b, dst->sizes, dst->dim));
  }
  if (dst->numel == 0) return PTERA_OK;
  int64_t vstr[PTERA_MAX_DIM];
  size_t lead = dst->dim - src->dim;
  for (size_t d = 0; d < dst->dim; d++)
    vstr[d] = d < lead || src->sizes[d - lead] == 1 ? 0 : src->strides[d - lead];
  pk_copy_view(dst, src, vstr, 0);
  return PTERA_OK;
}

ptera_status pk_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::copy.out";
  ptera_tensor *self, *src, *out;
  bool nb;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "src", &src));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "non_blocking", &nb));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  return copy_into(ctx, op, out, src);
}

ptera_status pk_copy_(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::copy_";
  ptera_tensor *self, *src;
  bool nb;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "src", &src));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "non_blocking", &nb));
  return copy_into(ctx, op, self, src);
}

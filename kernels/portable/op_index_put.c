/* aten::index_put.out(Tensor self, Tensor?[] indices, Tensor values,
 * bool accumulate=False, *, Tensor(a!) out): out = self, then out[indices] = values
 * (or += with accumulate), values broadcast to the shape self[indices] has.
 * aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values,
 * bool accumulate=False): the same in place. Repeated indices without accumulate
 * keep the last write. */
#include "builtin.h"
#include "portable/util/adv_index.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

static ptera_status index_put(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *self,
                              ptera_tensor *const *ix, size_t n, const ptera_tensor *values,
                              bool accumulate, ptera_tensor *out) {
  pk_adv_plan plan;
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "values", values));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_adv_plan_init(ctx, op, self, ix, n, &plan));
  if (!pk_can_broadcast_to(values, plan.rsizes, plan.rdim)) {
    char a[128], b[128];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'values' of shape %s cannot be broadcast to the indexed shape %s",
                             op, pk_fmt_shape(a, sizeof a, values->sizes, values->dim),
                             pk_fmt_shape(b, sizeof b, plan.rsizes, plan.rdim));
  }
  size_t numel;
  PK_TRY(pk_adv_validate(ctx, op, &plan, self, &numel)); /* before touching out */
  int64_t ridx[PTERA_MAX_DIM];
  ptrdiff_t off;
  if (out != self) {
    PK_TRY(pk_resize_like(ctx, op, "out", out, self));
    pk_copy_same_shape(out, self);
  }
  if (numel == 0) return PTERA_OK;
  int64_t vstr[PTERA_MAX_DIM];
  pk_bcast_strides(values, plan.rdim, plan.rsizes, vstr);
  size_t es = ptera_dtype_size(self->dtype);
  for (size_t e = 0; e < numel; e++) {
    pk_unflatten(e, plan.rsizes, plan.rdim, ridx);
    PK_TRY(pk_adv_offset(ctx, op, &plan, out, ridx, &off));
    ptrdiff_t vo = 0;
    for (size_t k = 0; k < plan.rdim; k++) vo += (ptrdiff_t)ridx[k] * (ptrdiff_t)vstr[k];
    char *dst = (char *)out->data + off * (ptrdiff_t)es;
    const char *src = (const char *)values->data + vo * (ptrdiff_t)es;
    if (accumulate)
      pk_accumulate_elem(dst, src, self->dtype);
    else
      memcpy(dst, src, es);
  }
  return PTERA_OK;
}

ptera_status pk_index_put_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::index_put.out";
  ptera_tensor *self, *values, *out, *ix[PTERA_MAX_DIM];
  size_t n;
  bool acc;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_opt_tensor_list(ctx, op, args, 1, "indices", ix, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "values", &values));
  PK_TRY(pk_get_bool(ctx, op, args, 3, "accumulate", &acc));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  return index_put(ctx, op, self, ix, n, values, acc, out);
}

ptera_status pk_index_put_(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::index_put_";
  ptera_tensor *self, *values, *ix[PTERA_MAX_DIM];
  size_t n;
  bool acc;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_opt_tensor_list(ctx, op, args, 1, "indices", ix, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "values", &values));
  PK_TRY(pk_get_bool(ctx, op, args, 3, "accumulate", &acc));
  if (self->flags & PTERA_TENSOR_CONST)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is read-only constant data", op);
  return index_put(ctx, op, self, ix, n, values, acc, self);
}

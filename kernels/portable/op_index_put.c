/* aten::index_put.out(Tensor self, Tensor?[] indices, Tensor values,
 * bool accumulate=False, *, Tensor(a!) out): out = self, then out[indices] = values
 * (or += with accumulate), values broadcast to the shape self[indices] has.
 * aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values,
 * bool accumulate=False): the same in place. Repeated indices without accumulate
 * keep the last write. Whole rows at a time where one index picks rows of
 * contiguous data (a KV-cache update). */
#include "builtin.h"
#include "portable/util/adv_index.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

/* Whole rows: one integer index tensor on dim 0 of contiguous data and
 * values of exactly [len(index), self.sizes[1:]] (no broadcast), apart from
 * out; every index in range. Rows are written in index order, so a repeated
 * index keeps its last row (accumulate: adds them all), as the element loop.
 * False (nothing touched) otherwise: the general path checks and reports. */
static bool put_rows(ptera_tensor *self, ptera_tensor *const *ix, size_t n,
                     const ptera_tensor *values, bool accumulate, ptera_tensor *out) {
  const ptera_tensor *x = n == 1 ? ix[0] : NULL;
  if (!x || x->dim != 1 || (x->dtype != PTERA_DTYPE_LONG && x->dtype != PTERA_DTYPE_INT) ||
      !ptera_tensor_is_contiguous(x) || self->dim < 1 || !ptera_tensor_is_contiguous(self) ||
      !ptera_tensor_is_contiguous(values) || !ptera_tensor_is_contiguous(out) ||
      values->dim != self->dim || values->sizes[0] != x->sizes[0] || out->dim != self->dim ||
      (x->numel && !x->data))
    return false;
  for (size_t d = 0; d < self->dim; d++)
    if (out->sizes[d] != self->sizes[d] || (d > 0 && values->sizes[d] != self->sizes[d]))
      return false;
  size_t es = ptera_dtype_size(self->dtype), rows = (size_t)self->sizes[0];
  size_t row_elems = rows ? self->numel / rows : 0, row_bytes = row_elems * es;
  uintptr_t o = (uintptr_t)out->data, v = (uintptr_t)values->data;
  if (values->numel && o < v + values->numel * es && v < o + out->numel * es) return false;
  for (size_t i = 0; i < x->numel; i++) {
    int64_t r = x->dtype == PTERA_DTYPE_LONG ? ((const int64_t *)x->data)[i]
                                             : ((const int32_t *)x->data)[i];
    if (r < -(int64_t)rows || r >= (int64_t)rows) return false;
  }
  if (out != self) pk_copy_same_shape(out, self);
  if (!row_bytes) return true;
  for (size_t i = 0; i < x->numel; i++) {
    int64_t r = x->dtype == PTERA_DTYPE_LONG ? ((const int64_t *)x->data)[i]
                                             : ((const int32_t *)x->data)[i];
    if (r < 0) r += (int64_t)rows;
    char *dst = (char *)out->data + (size_t)r * row_bytes;
    const char *src = (const char *)values->data + i * row_bytes;
    if (!accumulate) {
      memcpy(dst, src, row_bytes);
    } else {
      for (size_t e = 0; e < row_elems; e++) pk_accumulate_elem(dst + e * es, src + e * es, self->dtype);
    }
  }
  return true;
}

static ptera_status index_put(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *self,
                              ptera_tensor *const *ix, size_t n, const ptera_tensor *values,
                              bool accumulate, ptera_tensor *out) {
  pk_adv_plan plan;
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", self));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "values", values));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (put_rows(self, ix, n, values, accumulate, out)) return PTERA_OK;
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

/* aten::slice_copy.Tensor_out(Tensor self, int dim=0, SymInt? start=None,
 * SymInt? end=None, SymInt step=1, *, Tensor(a!) out): Python slicing of one
 * dim (start/end clamped, step > 0). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_slice_copy_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::slice_copy.Tensor_out";
  ptera_tensor *self, *out;
  int64_t dim, start = 0, end = INT64_MAX, step;
  bool has_start, has_end;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 7));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_opt_int(ctx, op, args, 2, "start", &start, &has_start));
  PK_TRY(pk_get_opt_int(ctx, op, args, 3, "end", &end, &has_end));
  PK_TRY(pk_get_int(ctx, op, args, 4, "step", &step));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (self->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' is 0-d", op);
  if (step <= 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'step' %lld must be positive", op,
                             (long long)step);
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, self->dim, &d));
  int64_t size = self->sizes[d];
  int64_t len = pk_slice_range(size, has_start, start, has_end, end, step, &start);
  int32_t sizes[PTERA_MAX_DIM];
  int64_t vstr[PTERA_MAX_DIM];
  for (size_t i = 0; i < self->dim; i++) {
    sizes[i] = self->sizes[i];
    vstr[i] = self->strides[i];
  }
  sizes[d] = (int32_t)len;
  vstr[d] = len > 1 ? step * self->strides[d] : 0;
  PK_TRY(pk_resize(ctx, op, "out", out, self->dim, sizes));
  pk_copy_view(out, self, vstr, len > 0 ? start * self->strides[d] : 0);
  return PTERA_OK;
}

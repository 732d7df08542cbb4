#include "portable/util/upsample_util.h"

ptera_status pk_upsample_vec_args(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *self,
                                  ptera_value **args, size_t i, size_t j, int32_t *out_sizes,
                                  double *scales) {
  int64_t osz[2];
  size_t n = 0;
  bool has_size, has_scale = false;
  if (self->dim != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' must be 4-D, got rank %u",
                             op, (unsigned)self->dim);
  PK_TRY(pk_get_opt_int_list(ctx, op, args, i, "output_size", osz, 2, &n, &has_size));
  const ptera_value *sv = args[j];
  if (sv && sv->tag == PTERA_TAG_LIST_DOUBLE) {
    has_scale = true;
    if (sv->u.doubles.len != 2 || !sv->u.doubles.items)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'scale_factors' must have 2 items, has %zu", op,
                               sv->u.doubles.len);
  } else if (!sv || sv->tag != PTERA_TAG_NONE) {
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: 'scale_factors' must be a float list or None, got %s",
                             op, sv ? ptera_tag_name(sv->tag) : "a missing value");
  }
  if (has_size == has_scale)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: exactly one of 'output_size' and 'scale_factors' must be given", op);
  out_sizes[0] = self->sizes[0];
  out_sizes[1] = self->sizes[1];
  for (size_t k = 0; k < 2; k++) {
    int64_t o;
    if (has_size) {
      if (n != 2)
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'output_size' must have 2 items, has %zu",
                                 op, n);
      o = osz[k];
      scales[k] = self->sizes[2 + k] > 0 ? (double)o / (double)self->sizes[2 + k] : 1.0;
    } else {
      double s = sv->u.doubles.items[k];
      double v = (double)self->sizes[2 + k] * s;
      if (!(s > 0) || !(v < 2147483647.0))
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'scale_factors' item %zu is invalid: %g",
                                 op, k, s);
      o = (int64_t)v;
      scales[k] = s;
    }
    if (o <= 0 || o > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: output size %lld must be positive",
                               op, (long long)o);
    out_sizes[2 + k] = (int32_t)o;
  }
  if (self->sizes[2] <= 0 || self->sizes[3] <= 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' has an empty spatial dim", op);
  return PTERA_OK;
}

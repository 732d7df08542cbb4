/* aten::repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out): tiles self
 * repeats[i] times along each dim (self is left-padded with size-1 dims to
 * len(repeats) >= rank). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_repeat_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::repeat.out";
  ptera_tensor *self, *out;
  int64_t reps[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "repeats", reps, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (n < self->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'repeats' has %zu entries, fewer than the rank %u of 'self'", op,
                             n, (unsigned)self->dim);
  size_t lead = n - self->dim;
  int32_t sizes[PTERA_MAX_DIM];
  int64_t ssz[PTERA_MAX_DIM], sst[PTERA_MAX_DIM];
  for (size_t i = 0; i < n; i++) {
    ssz[i] = i < lead ? 1 : self->sizes[i - lead];
    sst[i] = i < lead ? 0 : self->strides[i - lead];
    if (reps[i] < 0 || (ssz[i] > 0 && reps[i] > INT32_MAX / ssz[i]))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'repeats' entry %lld is invalid",
                               op, (long long)reps[i]);
    sizes[i] = (int32_t)(reps[i] * ssz[i]);
  }
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  if (out->numel == 0) return PTERA_OK;
  int64_t rsz[PK_REGION_MAX_DIM], dstr[PK_REGION_MAX_DIM], sstr[PK_REGION_MAX_DIM];
  for (size_t i = 0; i < n; i++) {
    rsz[2 * i] = reps[i];
    dstr[2 * i] = ssz[i] * out->strides[i];
    sstr[2 * i] = 0;
    rsz[2 * i + 1] = ssz[i];
    dstr[2 * i + 1] = out->strides[i];
    sstr[2 * i + 1] = sst[i];
  }
  pk_copy_region(out->data, out->dtype, dstr, 0, self->data, self->dtype, sstr, 0, 2 * n, rsz);
  return PTERA_OK;
}

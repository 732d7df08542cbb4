#include "portable/util/pool_util.h"

ptera_status pk_get_spatial(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                            const char *name, size_t nsp, int64_t min, bool allow_empty,
                            const int64_t *def, int64_t *out) {
  int64_t buf[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_get_int_list(ctx, op, args, i, name, buf, PTERA_MAX_DIM, &n));
  if (n == 0 && allow_empty && def) {
    for (size_t k = 0; k < nsp; k++) out[k] = def[k];
    return PTERA_OK;
  }
  if (n != 1 && n != nsp)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' must have 1 or %zu values, got %zu",
                             op, name, nsp, n);
  for (size_t k = 0; k < nsp; k++) {
    out[k] = buf[n == 1 ? 0 : k];
    if (out[k] < min || out[k] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' value %lld is out of range",
                               op, name, (long long)out[k]);
  }
  return PTERA_OK;
}

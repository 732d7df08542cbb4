/* aten::ones.out(SymInt[] size, *, Tensor(a!) out). */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"

ptera_status pk_ones_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::ones.out";
  ptera_tensor *out;
  int64_t size[PTERA_MAX_DIM];
  size_t n;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_int_list(ctx, op, args, 0, "size", size, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t i = 0; i < n; i++) {
    if (size[i] < 0 || size[i] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' entry %lld is invalid", op,
                               (long long)size[i]);
    sizes[i] = (int32_t)size[i];
  }
  PK_TRY(pk_resize(ctx, op, "out", out, n, sizes));
  pk_scalar v = {PTERA_TAG_INT, 1, 1.0};
  return pk_fill_scalar(ctx, op, "out", out, &v);
}

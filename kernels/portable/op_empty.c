/* aten::empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out):
 * only resizes out; its contents are left as they are. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_empty_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::empty.out";
  ptera_tensor *out;
  int64_t size[PTERA_MAX_DIM], mf;
  size_t n;
  bool has_mf;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_int_list(ctx, op, args, 0, "size", size, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_opt_memory_format(ctx, op, args, 1, "memory_format", &mf, &has_mf));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t i = 0; i < n; i++) {
    if (size[i] < 0 || size[i] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' entry %lld is invalid", op,
                               (long long)size[i]);
    sizes[i] = (int32_t)size[i];
  }
  return pk_resize(ctx, op, "out", out, n, sizes);
}

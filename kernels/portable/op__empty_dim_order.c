/* dim_order_ops::_empty_dim_order.out(SymInt[] size, *, int[]? dim_order=None,
 * Tensor(a!) out): resizes out to size; the contents are left as they are. A
 * given dim_order must be out's (contiguous or channels-last); None needs a
 * contiguous out. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_empty_dim_order_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "dim_order_ops::_empty_dim_order.out";
  ptera_tensor *out;
  int64_t size[PTERA_MAX_DIM], order[PTERA_MAX_DIM];
  size_t n, no;
  bool has_order;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_int_list(ctx, op, args, 0, "size", size, PTERA_MAX_DIM, &n));
  PK_TRY(pk_get_opt_int_list(ctx, op, args, 1, "dim_order", order, PTERA_MAX_DIM, &no, &has_order));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  if (has_order) {
    bool ok = no == out->dim;
    for (size_t i = 0; ok && i < no; i++) ok = order[i] == out->dim_order[i];
    if (!ok)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'dim_order' does not match the dim order of 'out'", op);
  } else if (!ptera_tensor_is_contiguous(out)) {
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'dim_order' is None but 'out' is not contiguous", op);
  }
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t i = 0; i < n; i++) {
    if (size[i] < 0 || size[i] > INT32_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'size' item %zu is invalid: %lld",
                               op, i, (long long)size[i]);
    sizes[i] = (int32_t)size[i];
  }
  return pk_resize(ctx, op, "out", out, n, sizes);
}

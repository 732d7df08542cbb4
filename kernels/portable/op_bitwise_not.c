/* aten::bitwise_not.out(Tensor self, *, Tensor(a!) out): ~x for integers,
 * logical not for Bool. */
#include "builtin.h"
#include "portable/util/bitwise.h"

ptera_status pk_bitwise_not_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_bitwise_not_kernel(ctx, "aten::bitwise_not.out", args, nargs);
}

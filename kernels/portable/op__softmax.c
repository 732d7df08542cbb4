/* aten::_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/softmax.h"

ptera_status pk_softmax_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_softmax_common(ctx, "aten::_softmax.out", args, nargs, false);
}

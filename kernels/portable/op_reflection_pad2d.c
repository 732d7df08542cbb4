/* aten::reflection_pad2d.out(Tensor self, SymInt[4] padding, *, Tensor(a!) out):
 * pads the last 2 dim(s) (self rank 3 or 4); mirrors self at its edges (without repeating the edge element; padding < size). */
#include "builtin.h"
#include "portable/util/pad.h"
#include "portable/util/pk.h"

ptera_status pk_reflection_pad2d_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_pad_kernel(ctx, "aten::reflection_pad2d.out", args, nargs, 2, true);
}

/* aten::reflection_pad3d.out(Tensor self, SymInt[6] padding, *, Tensor(a!) out):
 * pads the last 3 dim(s) (self rank 4 or 5); mirrors self at its edges (without repeating the edge element; padding < size). */
#include "builtin.h"
#include "portable/util/pad.h"
#include "portable/util/pk.h"

ptera_status pk_reflection_pad3d_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_pad_kernel(ctx, "aten::reflection_pad3d.out", args, nargs, 3, true);
}

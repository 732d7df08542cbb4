/* aten::replication_pad3d.out(Tensor self, SymInt[6] padding, *, Tensor(a!) out):
 * pads the last 3 dim(s) (self rank 4 or 5); repeats self's edge elements. */
#include "builtin.h"
#include "portable/util/pad.h"
#include "portable/util/pk.h"

ptera_status pk_replication_pad3d_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_pad_kernel(ctx, "aten::replication_pad3d.out", args, nargs, 3, false);
}

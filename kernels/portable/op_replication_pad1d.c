/* aten::replication_pad1d.out(Tensor self, SymInt[2] padding, *, Tensor(a!) out):
 * pads the last 1 dim(s) (self rank 2 or 3); repeats self's edge elements. */
#include "builtin.h"
#include "portable/util/pad.h"
#include "portable/util/pk.h"

ptera_status pk_replication_pad1d_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_pad_kernel(ctx, "aten::replication_pad1d.out", args, nargs, 1, false);
}

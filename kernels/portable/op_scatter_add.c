/* aten::scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *,
 * Tensor(a!) out): out = self, then out[index[i][j]][j] += src[i][j] (dim 0). */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

ptera_status pk_scatter_add_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return pk_scatter_src_op(ctx, "aten::scatter_add.out", args, nargs, true);
}

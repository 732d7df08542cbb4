#include "portable/util/upsample_io.h"
#include "portable/util/pk.h"
#include "portable/util/upsample_util.h"

ptera_status pk_upsample_out(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                             const ptera_tensor *in, size_t i, size_t j, size_t out_i,
                             ptera_tensor **out, int32_t *sizes, double *scales) {
  PK_TRY(pk_get_tensor(ctx, op, args, out_i, "out", out));
  PK_TRY(pk_check_real(ctx, op, "input", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "out", *out));
  PK_TRY(pk_upsample_vec_args(ctx, op, in, args, i, j, sizes, scales));
  return pk_resize(ctx, op, "out", *out, 4, sizes);
}

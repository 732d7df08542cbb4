/* aten::rand.out(int[] size, *, Tensor(a!) out): uniform in [0, 1) samples from ptera's
 * own deterministic generator (util/fill.h), not PyTorch's. out is floating. */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"

ptera_status pk_rand_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::rand.out";
  ptera_tensor *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "out", out));
  PK_TRY(pk_resize_to_size_arg(ctx, op, args, 0, out));
  pk_rng r;
  pk_rng_init(&r);
  size_t es = ptera_dtype_size(out->dtype);
  /* Samples are truncated to the dtype's significand (as PyTorch draws them): rounding a
   * double in [0, 1) to nearest could give 1.0 in Half, BFloat16 or Float. */
  double steps = out->dtype == PTERA_DTYPE_HALF       ? 2048.0
                 : out->dtype == PTERA_DTYPE_BFLOAT16 ? 256.0
                 : out->dtype == PTERA_DTYPE_FLOAT    ? 16777216.0
                                                      : 0.0;
  for (size_t i = 0; i < out->numel; i++) {
    double u = pk_rng_uniform(&r);
    if (steps > 0.0) u = floor(u * steps) / steps;
    pk_store_f64((char *)out->data + i * es, out->dtype, u);
  }
  return PTERA_OK;
}

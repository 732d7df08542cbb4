/* aten::randn.out(int[] size, *, Tensor(a!) out): standard normal samples from ptera's
 * own deterministic generator (util/fill.h), not PyTorch's. out is floating. */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"

ptera_status pk_randn_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::randn.out";
  ptera_tensor *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "out", out));
  PK_TRY(pk_resize_to_size_arg(ctx, op, args, 0, out));
  pk_rng r;
  pk_rng_init(&r);
  size_t es = ptera_dtype_size(out->dtype);
  for (size_t i = 0; i < out->numel; i++) pk_store_f64((char *)out->data + i * es, out->dtype, pk_rng_normal(&r));
  return PTERA_OK;
}

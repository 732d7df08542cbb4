/* aten::scalar_tensor.out(Scalar s, *, Tensor(a!) out): a rank-0 tensor holding s. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_scalar_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::scalar_tensor.out";
  ptera_tensor *out;
  pk_scalar s;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_scalar(ctx, op, args, 0, "s", &s));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  PK_TRY(pk_resize(ctx, op, "out", out, 0, NULL));
  if (out->numel != 1 || !out->data)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'out' must hold one element", op);
  if (s.tag == PTERA_TAG_DOUBLE)
    pk_store_f64(out->data, out->dtype, s.d);
  else
    pk_store_i64(out->data, out->dtype, s.i);
  return PTERA_OK;
}

/* aten::fill.Scalar_out(Tensor self, Scalar value, *, Tensor(a!) out)
 * aten::fill.Tensor_out(Tensor self, Tensor value, *, Tensor(a!) out)
 * out takes self's shape and dtype and is filled with value (a 0-d tensor for
 * Tensor_out). */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"

static ptera_status fill(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *self,
                         ptera_tensor *out, const pk_scalar *v) {
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  return pk_fill_scalar(ctx, op, "out", out, v);
}

ptera_status pk_fill_scalar_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::fill.Scalar_out";
  ptera_tensor *self, *out;
  pk_scalar v;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "value", &v));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  return fill(ctx, op, self, out, &v);
}

ptera_status pk_fill_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::fill.Tensor_out";
  ptera_tensor *self, *value, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "value", &value));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  if (value->dim != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'value' has rank %u, not 0", op,
                             (unsigned)value->dim);
  PK_TRY(pk_check_real_or_bool(ctx, op, "value", value));
  pk_scalar v;
  if (pk_is_float(value->dtype)) {
    v.tag = PTERA_TAG_DOUBLE;
    v.d = pk_load_f64(value->data, value->dtype);
    v.i = 0;
    if (!pk_is_float(out->dtype)) {
      /* a tensor value is cast like PyTorch's copy, not range-checked */
      v.tag = PTERA_TAG_INT;
      v.i = pk_is_bool(out->dtype) ? v.d != 0.0 : pk_wrap_to(pk_f64_to_i64(v.d), out->dtype);
    }
  } else {
    v.tag = PTERA_TAG_INT;
    v.i = pk_wrap_to(pk_load_i64(value->data, value->dtype), out->dtype);
    v.d = 0.0;
  }
  return fill(ctx, op, self, out, &v);
}

/* et_copy::_h2d_copy.out(Tensor self, *, Tensor(a!) out) and
 * et_copy::_d2h_copy.out(Tensor self, *, Tensor(a!) out): device transfers
 * inserted around device-placed subgraphs. ptera has one (host) memory space,
 * so both are a byte copy of self into out (same dtype, resized to self). */
#include "builtin.h"
#include "portable/util/pk.h"

static ptera_status device_copy(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                size_t nargs) {
  ptera_tensor *self, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  if (out->numel == 0) return PTERA_OK;
  if (pk_same_layout(out, self))
    memmove(out->data, self->data, ptera_tensor_nbytes(self));
  else if (pk_is_real_or_bool(self->dtype))
    pk_copy_same_shape(out, self);
  else
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'out' must have the layout of 'self' for dtype %s", op,
                             ptera_dtype_name(self->dtype));
  return PTERA_OK;
}

ptera_status pk_h2d_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return device_copy(ctx, "et_copy::_h2d_copy.out", args, nargs);
}

ptera_status pk_d2h_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return device_copy(ctx, "et_copy::_d2h_copy.out", args, nargs);
}

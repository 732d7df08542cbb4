/* aten::view_as_real_copy.out(Tensor self, *, Tensor(a!) out): a complex tensor as
 * its real type with a trailing dim of 2 (real, imaginary). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/region.h"

ptera_status pk_view_as_real_copy_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::view_as_real_copy.out";
  ptera_tensor *self, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  int real;
  switch (self->dtype) {
    case PTERA_DTYPE_COMPLEX_HALF: real = PTERA_DTYPE_HALF; break;
    case PTERA_DTYPE_COMPLEX_FLOAT: real = PTERA_DTYPE_FLOAT; break;
    case PTERA_DTYPE_COMPLEX_DOUBLE: real = PTERA_DTYPE_DOUBLE; break;
    default:
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must be complex, got %s",
                               op, ptera_dtype_name(self->dtype));
  }
  if (out->dtype != real)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'out' must be %s, got %s", op,
                             ptera_dtype_name(real), ptera_dtype_name(out->dtype));
  if (self->dim >= PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' already has rank %d", op,
                             PTERA_MAX_DIM);
  int32_t sizes[PTERA_MAX_DIM];
  int64_t vstr[PTERA_MAX_DIM];
  for (size_t i = 0; i < self->dim; i++) {
    sizes[i] = self->sizes[i];
    vstr[i] = 2 * (int64_t)self->strides[i];
  }
  sizes[self->dim] = 2;
  vstr[self->dim] = 1;
  PK_TRY(pk_resize(ctx, op, "out", out, self->dim + 1u, sizes));
  /* read self's data as pairs of real elements */
  ptera_tensor as_real = *self;
  as_real.dtype = (uint8_t)real;
  pk_copy_view(out, &as_real, vstr, 0);
  return PTERA_OK;
}

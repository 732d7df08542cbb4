/* aten::_conj_physical.out(Tensor self, *, Tensor(a!) out): complex conjugate into an
 * out of the same dtype. Complex elements get the imaginary part's sign flipped (as
 * negation does, NaN included); real and bool tensors are copied unchanged. */
#include <string.h>

#include "builtin.h"
#include "portable/util/pk.h"

static bool is_complex(int dt) {
  return dt == PTERA_DTYPE_COMPLEX_HALF || dt == PTERA_DTYPE_COMPLEX_FLOAT ||
         dt == PTERA_DTYPE_COMPLEX_DOUBLE;
}

ptera_status pk_conj_physical_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::_conj_physical.out";
  ptera_tensor *in, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  if (!is_complex(in->dtype)) PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_iter it;
  const ptera_tensor *ins[1] = {in};
  pk_iter_init(&it, out, ins, 1);
  size_t es = ptera_dtype_size(in->dtype);
  bool cplx = is_complex(in->dtype);
  PK_ITER_FOR(it) {
    uint8_t *d = (uint8_t *)PK_PTR(out->data, it, 0);
    memmove(d, PK_PTR(in->data, it, 1), es);
    if (cplx) d[es - 1] ^= 0x80; /* sign bit of the (little-endian) imaginary part */
  }
  return PTERA_OK;
}

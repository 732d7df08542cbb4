/* aten::glu.out(Tensor self, int dim=-1, *, Tensor(a!) out): splits self in two
 * halves a, b along dim (its size must be even) and gives a * sigmoid(b). Floating
 * self and out (dtypes may differ); computed in double. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_glu_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::glu.out";
  ptera_tensor *in, *out;
  int64_t dim;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "self", in));
  PK_TRY(pk_check_float(ctx, op, "out", out));
  if (in->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have at least one dim",
                             op);
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, in->dim, &d));
  if (in->sizes[d] % 2 != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'self' size %d along 'dim' %zu is not even", op,
                             (int)in->sizes[d], d);
  /* Two views of self: the first and the second half along d. */
  ptera_tensor a = *in, b = *in;
  a.sizes[d] = b.sizes[d] = in->sizes[d] / 2;
  a.numel = b.numel = in->numel / 2;
  if (b.numel > 0)
    b.data = (char *)in->data +
             (size_t)a.sizes[d] * (size_t)in->strides[d] * ptera_dtype_size(in->dtype);
  PK_TRY(pk_resize(ctx, op, "out", out, a.dim, a.sizes));
  pk_iter it;
  const ptera_tensor *ins[2] = {&a, &b};
  pk_iter_init(&it, out, ins, 2);
  int id = in->dtype, od = out->dtype;
  PK_ITER_FOR(it) {
    double x = pk_load_f64(PK_PTR(a.data, it, 1), id), y = pk_load_f64(PK_PTR(b.data, it, 2), id);
    pk_store_f64(PK_PTR(out->data, it, 0), od, x / (1.0 + exp(-y)));
  }
  return PTERA_OK;
}

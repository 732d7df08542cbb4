/* aten::isinf.out(Tensor self, *, Tensor(a!) out): real or bool self; out of any real or
 * bool dtype gets 1/0 (integers and bool give 0). */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_isinf_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::isinf.out";
  ptera_tensor *in, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_iter it;
  const ptera_tensor *ins[1] = {in};
  pk_iter_init(&it, out, ins, 1);
  int id = in->dtype, od = out->dtype;
  bool fl = pk_is_float(id);
  PK_ITER_FOR(it) {
    bool r = false;
    if (fl) {
      double x = pk_load_f64(PK_PTR(in->data, it, 1), id);
      r = isinf(x);
    }
    pk_store_i64(PK_PTR(out->data, it, 0), od, r);
  }
  return PTERA_OK;
}

/* aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out): true division;
 * integer and bool inputs divide in float. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_div_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::div.out";
  ptera_tensor *a, *b, *out;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "other", b));
  if (!pk_is_float(a->dtype) && !pk_is_float(b->dtype)) {
    /* integral / integral: the result is Float */
    PK_TRY(pk_check_float(ctx, op, "out", out));
  }
  PK_TRY(pk_binary_prepare(ctx, op, a, b, out, &common));
  if (!pk_is_float(common)) common = PTERA_DTYPE_FLOAT;

  pk_iter it;
  const ptera_tensor *ins[2] = {a, b};
  pk_iter_init(&it, out, ins, 2);
  int ad = a->dtype, bd = b->dtype, od = out->dtype;
  if (pk_compute_type(common) == PK_CT_F32) {
    PK_ITER_FOR(it) {
      float x = pk_load_f32(PK_PTR(a->data, it, 1), ad), y = pk_load_f32(PK_PTR(b->data, it, 2), bd);
      pk_store_f32(PK_PTR(out->data, it, 0), od, x / y);
    }
  } else {
    PK_ITER_FOR(it) {
      double x = pk_load_f64(PK_PTR(a->data, it, 1), ad), y = pk_load_f64(PK_PTR(b->data, it, 2), bd);
      pk_store_f64(PK_PTR(out->data, it, 0), od, x / y);
    }
  }
  return PTERA_OK;
}

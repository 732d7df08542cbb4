/* aten::native_dropout.out(Tensor input, float p, bool? train, *, Tensor(a!) out0,
 * Tensor(b!) out1) -> (Tensor(a!), Tensor(b!)). Training (train true or None):
 * each element is kept with probability 1 - p (ptera's own deterministic
 * generator); out0 = kept ? input / (1 - p) : 0 and out1 (Bool) = kept.
 * Otherwise out0 = input and out1 is all true. */
#include "builtin.h"
#include "portable/util/fill.h"
#include "portable/util/pk.h"

ptera_status pk_native_dropout_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::native_dropout.out";
  ptera_tensor *in, *out, *mask;
  double p;
  bool train = true;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_double(ctx, op, args, 1, "p", &p));
  if (!(args[2] && args[2]->tag == PTERA_TAG_NONE))
    PK_TRY(pk_get_bool(ctx, op, args, 2, "train", &train));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out0", &out));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out1", &mask));
  PK_TRY(pk_check_float(ctx, op, "input", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "out0", out));
  PK_TRY(pk_check_dtype(ctx, op, "out1", mask, PTERA_DTYPE_BOOL));
  if (!(p >= 0.0 && p <= 1.0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'p' %g is outside [0, 1]", op, p);
  PK_TRY(pk_resize_like(ctx, op, "out0", out, in));
  PK_TRY(pk_resize_like(ctx, op, "out1", mask, in));
  if (out->numel == 0) return PTERA_OK;
  pk_rng r;
  pk_rng_init(&r);
  pk_iter it;
  const ptera_tensor *ins[2] = {in, mask};
  pk_iter_init(&it, out, ins, 2);
  bool f32 = pk_compute_type(in->dtype) == PK_CT_F32;
  float scale_f = p < 1.0 ? (float)(1.0 / (1.0 - p)) : 0.0f;
  double scale_d = p < 1.0 ? 1.0 / (1.0 - p) : 0.0;
  PK_ITER_FOR(it) {
    bool keep = !train || (p < 1.0 && pk_rng_uniform(&r) >= p);
    *(uint8_t *)PK_PTR(mask->data, it, 2) = keep;
    void *o = PK_PTR(out->data, it, 0);
    const void *x = PK_PTR(in->data, it, 1);
    if (!train)
      memcpy(o, x, ptera_dtype_size(in->dtype));
    else if (f32)
      pk_store_f32(o, out->dtype, keep ? pk_load_f32(x, in->dtype) * scale_f : 0.0f);
    else
      pk_store_f64(o, out->dtype, keep ? pk_load_f64(x, in->dtype) * scale_d : 0.0);
  }
  return PTERA_OK;
}

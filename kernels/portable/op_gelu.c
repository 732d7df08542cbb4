/* aten::gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out):
 * "none": x/2 * (1 + erf(x / sqrt(2))); "tanh": x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))).
 * Floating self; out of the same dtype; float32/half/bfloat16 computed in float, double in double. */
#include <string.h>

#include "builtin.h"
#include "portable/util/pk.h"
#include "cpu/vmath.h"
#include "portable/util/fast_f32.h"

ptera_status pk_gelu_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::gelu.out";
  ptera_tensor *in, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  const ptera_value *av = args[1];
  if (!av || av->tag != PTERA_TAG_STRING || (av->u.str.len && !av->u.str.ptr))
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: 'approximate' must be a String, got %s",
                             op, av ? ptera_tag_name(av->tag) : "a missing value");
  bool use_tanh;
  if (av->u.str.len == 4 && memcmp(av->u.str.ptr, "none", 4) == 0)
    use_tanh = false;
  else if (av->u.str.len == 4 && memcmp(av->u.str.ptr, "tanh", 4) == 0)
    use_tanh = true;
  else
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'approximate' must be \"none\" or \"tanh\"", op);
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "self", in));
  PK_TRY(pk_same_dtype_resize(ctx, op, in, out));
  if (pk_fast_unary_f32(ctx, use_tanh ? PK_VU_GELU_TANH : PK_VU_GELU_ERF, in, out)) return PTERA_OK;
  pk_iter it;
  pk_iter_init1(&it, out, in);
  int dt = in->dtype;
  const double k_tanh = 0.7978845608028654; /* sqrt(2 / pi) */
  const double k_erf = 0.7071067811865476;  /* 1 / sqrt(2) */
  if (pk_compute_type(dt) == PK_CT_F32) { /* in float like ExecuTorch (the cancellation shows) */
    const float kt = (float)k_tanh, ke = (float)k_erf;
    if (use_tanh) {
      PK_ITER_FOR(it) {
        float x = pk_load_f32(PK_PTR(in->data, it, 1), dt);
        float cube = x * x * x;
        float inner = kt * (x + 0.044715f * cube);
        pk_store_f32(PK_PTR(out->data, it, 0), dt, 0.5f * x * (1.0f + tanhf(inner)));
      }
    } else {
      PK_ITER_FOR(it) {
        float x = pk_load_f32(PK_PTR(in->data, it, 1), dt);
        pk_store_f32(PK_PTR(out->data, it, 0), dt, 0.5f * x * (1.0f + erff(x * ke)));
      }
    }
  } else if (use_tanh) {
    PK_ITER_FOR(it) {
      double x = pk_load_f64(PK_PTR(in->data, it, 1), dt);
      pk_store_f64(PK_PTR(out->data, it, 0), dt,
                   0.5 * x * (1.0 + tanh(k_tanh * (x + 0.044715 * x * x * x))));
    }
  } else {
    PK_ITER_FOR(it) {
      double x = pk_load_f64(PK_PTR(in->data, it, 1), dt);
      pk_store_f64(PK_PTR(out->data, it, 0), dt, 0.5 * x * (1.0 + erf(x * k_erf)));
    }
  }
  return PTERA_OK;
}

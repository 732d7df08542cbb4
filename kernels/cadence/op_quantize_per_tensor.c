/* cadence::quantize_per_tensor.out(Tensor input, float scale, int zero_point,
 * int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out)
 *
 * As the generic host kernel: out[i] = clamp((float)zp + nearbyintf(inv * x[i])),
 * with inv = (float)(1.0 / scale) (the reciprocal in double, rounded to float),
 * zp narrowed to int32, and the clamp to the limits of out's dtype. quant_min,
 * quant_max and dtype are accepted but unused (the kernel dispatches on out's
 * dtype). Input: Float. Out: Byte, Char, Short, UInt16, Bits16 or Int. */
#include "cadence/cadence_util.h"

#define QUANT_LOOP(ctype, lo, hi)                                                  \
  do {                                                                             \
    ctype *o = (ctype *)out->data;                                                 \
    for (size_t i = 0; i < n; i++) o[i] = (ctype)pkc_quantize(x[i], inv, zp, lo, hi); \
  } while (0)

ptera_status pk_cadence_quantize_per_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                size_t nargs) {
  static const char op[] = "cadence::quantize_per_tensor.out";
  ptera_tensor *in = NULL, *out = NULL;
  double scale = 0;
  int64_t zero_point = 0;
  PK_TRY(pkc_qdq_args(ctx, op, args, nargs, &in, &out, &scale, &zero_point));

  if (in->dtype != PTERA_DTYPE_FLOAT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: input must be Float, got %s", op,
                             ptera_dtype_name(in->dtype));
  PK_TRY(pkc_check_qdtype(ctx, op, "out", out));
  PK_TRY(pkc_resize_like_input(ctx, op, in, out));

  const float inv = (float)(1.0 / scale);
  const int32_t zp = pkc_wrap_i32(zero_point);
  const float *x = (const float *)in->data;
  const size_t n = in->numel;
  switch (out->dtype) {
    case PTERA_DTYPE_BYTE: QUANT_LOOP(uint8_t, 0, UINT8_MAX); break;
    case PTERA_DTYPE_CHAR: QUANT_LOOP(int8_t, INT8_MIN, INT8_MAX); break;
    case PTERA_DTYPE_SHORT: QUANT_LOOP(int16_t, INT16_MIN, INT16_MAX); break;
    case PTERA_DTYPE_UINT16: case PTERA_DTYPE_BITS16: QUANT_LOOP(uint16_t, 0, UINT16_MAX); break;
    default: QUANT_LOOP(int32_t, INT32_MIN, INT32_MAX); break;
  }
  return PTERA_OK;
}

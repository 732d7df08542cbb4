/* cadence::dequantize_per_tensor.out(Tensor input, float scale, int zero_point,
 * int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out)
 *
 * As the generic host kernel: out[i] = (float)scale * (float)(q[i] - zp), with
 * zp narrowed to int32 and the difference taken in int32 (wrapping, as the
 * reference build does for Int input). quant_min, quant_max and dtype are
 * accepted but unused (the kernel dispatches on the input's dtype).
 * Input: Byte, Char, Short, UInt16, Bits16 or Int. Out: Float. */
#include "cadence/cadence_util.h"

#define DEQUANT_LOOP(ctype)                                                 \
  do {                                                                      \
    const ctype *q = (const ctype *)in->data;                               \
    for (size_t i = 0; i < n; i++) {                                        \
      int32_t d = pkc_wrap_i32((int64_t)q[i] - (int64_t)zp);                \
      y[i] = sf * (float)d;                                                 \
    }                                                                       \
  } while (0)

ptera_status pk_cadence_dequantize_per_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                  size_t nargs) {
  static const char op[] = "cadence::dequantize_per_tensor.out";
  ptera_tensor *in = NULL, *out = NULL;
  double scale = 0;
  int64_t zero_point = 0;
  PK_TRY(pkc_qdq_args(ctx, op, args, nargs, &in, &out, &scale, &zero_point));

  PK_TRY(pkc_check_qdtype(ctx, op, "input", in));
  if (out->dtype != PTERA_DTYPE_FLOAT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: out must be Float, got %s", op,
                             ptera_dtype_name(out->dtype));
  PK_TRY(pkc_resize_like_input(ctx, op, in, out));

  const float sf = (float)scale;
  const int32_t zp = pkc_wrap_i32(zero_point);
  float *y = (float *)out->data;
  const size_t n = in->numel;
  switch (in->dtype) {
    case PTERA_DTYPE_BYTE: DEQUANT_LOOP(uint8_t); break;
    case PTERA_DTYPE_CHAR: DEQUANT_LOOP(int8_t); break;
    case PTERA_DTYPE_SHORT: DEQUANT_LOOP(int16_t); break;
    case PTERA_DTYPE_UINT16: case PTERA_DTYPE_BITS16: DEQUANT_LOOP(uint16_t); break;
    default: DEQUANT_LOOP(int32_t); break;
  }
  return PTERA_OK;
}

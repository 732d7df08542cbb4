/* cortex_m::quantized_activation.out(Tensor input, Tensor lut, *, Tensor(a!) out): int8
 * table lookup out[i] = lut[input[i] + 128] over equal-sized, equally laid out input and
 * out; lut holds 256 entries (docs/CORTEX_M.md §3.6). */
#include "builtin.h"
#include "cortex_m/cm_util.h"

ptera_status pk_cm_quantized_activation_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                            size_t nargs) {
  static const char op[] = "cortex_m::quantized_activation.out";
  ptera_tensor *in, *lut, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 1, "lut", &lut));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 2, "out", &out));
  if (lut->numel != 256)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'lut' must have 256 entries, got %zu",
                             op, lut->numel);
  bool layout = pk_same_layout(in, out) ||
                (ptera_tensor_is_contiguous(in) && ptera_tensor_is_contiguous(out));
  if (in->numel != out->numel || !layout)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'out' must have the element count and layout of 'input'", op);
  const int8_t *x = in->data, *t = lut->data;
  int8_t *y = out->data;
  for (size_t i = 0; i < out->numel; i++) y[i] = t[(uint8_t)(x[i] + 128)];
  return PTERA_OK;
}

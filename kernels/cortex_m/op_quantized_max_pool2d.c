/* cortex_m::quantized_max_pool2d.out(Tensor input, int[] kernel_size, int[] stride,
 * int[] padding, int[] dilation, bool ceil_mode, int input_zero_point, int output_zero_point,
 * int activation_min, int activation_max, *, Tensor(a!) out) (docs/CORTEX_M.md §3.16):
 * channels-last int8; the maximum of each window's in-bounds values clamped to
 * [activation_min, activation_max]. Dilation 1, no ceil_mode, equal zero points. */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

ptera_status pk_cm_quantized_max_pool2d_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                            size_t nargs) {
  static const char op[] = "cortex_m::quantized_max_pool2d.out";
  ptera_tensor *in, *out;
  int32_t kernel[2], stride[2], pad[2], dil[2], zi, zo, lo, hi;
  bool ceil_mode;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 12));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 1, "kernel_size", 2, 1, INT32_MAX, kernel));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 2, "stride", 2, 1, INT32_MAX, stride));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 3, "padding", 2, 0, INT32_MAX, pad));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 4, "dilation", 2, 1, 1, dil));
  PK_TRY(pk_get_bool(ctx, op, args, 5, "ceil_mode", &ceil_mode));
  PK_TRY(pk_cm_get_int(ctx, op, args, 6, "input_zero_point", INT8_MIN, INT8_MAX, &zi));
  PK_TRY(pk_cm_get_int(ctx, op, args, 7, "output_zero_point", INT8_MIN, INT8_MAX, &zo));
  PK_TRY(pk_cm_get_clamp(ctx, op, args, 8, 9, &lo, &hi));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 10, "out", &out));
  if (ceil_mode)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'ceil_mode' must be false", op);
  if (zi != zo)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: input_zero_point %d and output_zero_point %d must be equal", op,
                             (int)zi, (int)zo);
  pk_conv2d_geom g;
  PK_TRY(pk_cm_pool_init(ctx, op, in, out, kernel, stride, pad, false, &g));
  const int8_t *x = in->data;
  int8_t *y = out->data;
  for (int32_t n = 0; n < g.n; n++)
    for (int32_t oy = 0; oy < g.oh; oy++)
      for (int32_t ox = 0; ox < g.ow; ox++) {
        int64_t win[4];
        PK_TRY(pk_cm_pool_window(ctx, op, &g, oy, ox, win));
        const int64_t y0 = win[0], y1 = win[1], x0 = win[2], x1 = win[3];
        for (int32_t c = 0; c < g.c_in; c++) {
          int32_t mx = INT8_MIN;
          for (int64_t iy = y0; iy < y1; iy++)
            for (int64_t ix = x0; ix < x1; ix++) {
              int32_t v = x[(((size_t)n * g.h + iy) * g.w + ix) * g.c_in + c];
              mx = v > mx ? v : mx;
            }
          *y++ = (int8_t)pk_fx_clamp(mx, lo, hi);
        }
      }
  return PTERA_OK;
}

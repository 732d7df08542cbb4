/* cortex_m::quantized_avg_pool2d.out(Tensor input, int[] kernel_size, int[] stride,
 * int[] padding, bool ceil_mode, int zero_point, int multiplier, int shift, Tensor scratch,
 * *, Tensor(a!) out) (docs/CORTEX_M.md §3.15): channels-last int8; each output is the mean of
 * the window's in-bounds raw values (padding counts for neither sum nor count), rounded half
 * away from zero. zero_point, multiplier and shift are accepted and unused (input and output
 * share quantization). */
#include "builtin.h"
#include "cortex_m/cm_util.h"

ptera_status pk_cm_quantized_avg_pool2d_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                            size_t nargs) {
  static const char op[] = "cortex_m::quantized_avg_pool2d.out";
  ptera_tensor *in, *scratch, *out;
  int32_t kernel[2], stride[2], pad[2], zp, mult, shift;
  bool ceil_mode;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 11));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 1, "kernel_size", 2, 1, INT32_MAX, kernel));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 2, "stride", 2, 1, INT32_MAX, stride));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 3, "padding", 2, 0, INT32_MAX, pad));
  PK_TRY(pk_get_bool(ctx, op, args, 4, "ceil_mode", &ceil_mode));
  PK_TRY(pk_cm_get_int(ctx, op, args, 5, "zero_point", INT8_MIN, INT8_MAX, &zp));
  PK_TRY(pk_cm_get_requant(ctx, op, args, 6, 7, &mult, &shift));
  PK_TRY(pk_get_tensor(ctx, op, args, 8, "scratch", &scratch));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 9, "out", &out));
  pk_conv2d_geom g;
  PK_TRY(pk_cm_pool_init(ctx, op, in, out, kernel, stride, pad, ceil_mode, &g));
  const int8_t *x = in->data;
  int8_t *y = out->data;
  for (int32_t n = 0; n < g.n; n++)
    for (int32_t oy = 0; oy < g.oh; oy++)
      for (int32_t ox = 0; ox < g.ow; ox++) {
        int64_t win[4];
        PK_TRY(pk_cm_pool_window(ctx, op, &g, oy, ox, win));
        const int64_t y0 = win[0], y1 = win[1], x0 = win[2], x1 = win[3];
        int64_t cnt = (y1 - y0) * (x1 - x0);
        for (int32_t c = 0; c < g.c_in; c++) {
          int64_t sum = 0;
          for (int64_t iy = y0; iy < y1; iy++)
            for (int64_t ix = x0; ix < x1; ix++) sum += x[(((size_t)n * g.h + iy) * g.w + ix) * g.c_in + c];
          int64_t avg = sum > 0 ? (sum + cnt / 2) / cnt : (sum - cnt / 2) / cnt;
          *y++ = (int8_t)(avg < INT8_MIN ? INT8_MIN : avg > INT8_MAX ? INT8_MAX : avg);
        }
      }
  return PTERA_OK;
}

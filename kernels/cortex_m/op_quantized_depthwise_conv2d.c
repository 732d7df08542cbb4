/* cortex_m::quantized_depthwise_conv2d.out(Tensor input, Tensor weight, Tensor? bias,
 * int[] stride, int[] padding, int[] dilation, int depth_multiplier, int input_offset,
 * int output_offset, Tensor requantize_multipliers, Tensor requantize_shifts,
 * int activation_min, int activation_max, Tensor scratch, *, Tensor(a!) out)
 * (docs/CORTEX_M.md §3.13): batch 1, channels-last, weight [1, KH, KW, C_out] with
 * C_out = C_in * depth_multiplier; output channel oc = ic * depth_multiplier + m reads
 * input channel ic only. Requantization as quantized_conv2d. */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

ptera_status pk_cm_quantized_depthwise_conv2d_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                  size_t nargs) {
  static const char op[] = "cortex_m::quantized_depthwise_conv2d.out";
  ptera_tensor *in, *w, *scratch, *out;
  const int32_t *bias, *mult, *shift;
  int32_t stride[2], pad[2], dil[2], dm, io, oo, lo, hi;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 16));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 3, "stride", 2, 1, INT32_MAX, stride));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 4, "padding", 2, 0, INT32_MAX, pad));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 5, "dilation", 2, 1, INT32_MAX, dil));
  PK_TRY(pk_cm_get_int(ctx, op, args, 6, "depth_multiplier", 1, INT32_MAX, &dm));
  PK_TRY(pk_cm_get_int(ctx, op, args, 7, "input_offset", -127, 128, &io));
  PK_TRY(pk_cm_get_int(ctx, op, args, 8, "output_offset", INT8_MIN, INT8_MAX, &oo));
  PK_TRY(pk_cm_get_clamp(ctx, op, args, 11, 12, &lo, &hi));
  PK_TRY(pk_get_tensor(ctx, op, args, 13, "scratch", &scratch));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 14, "out", &out));
  if (w->dim != 4 || w->sizes[0] != 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight' must be [1, KH, KW, C_out]",
                             op);
  PK_TRY(pk_cm_check_contiguous(ctx, op, "weight", w));
  pk_conv2d_geom g;
  PK_TRY(pk_cm_conv_init(ctx, op, in, out, in->sizes[1], w->sizes[1], w->sizes[2], stride, pad, dil, NULL,
                         &g));
  if (g.n != 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: batch must be 1, got %d", op, (int)g.n);
  if ((int64_t)g.c_in * dm != g.c_out || w->sizes[3] != g.c_out)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: C_out %d and weight.size(3) %d must equal C_in %d x "
                             "depth_multiplier %d",
                             op, (int)g.c_out, (int)w->sizes[3], (int)g.c_in, (int)dm);
  size_t oc = (size_t)g.c_out;
  PK_TRY(pk_cm_get_channel_params(ctx, op, args, 2, 9, oc, &bias, &mult, &shift));
  const int8_t *x = in->data, *wt = w->data;
  int8_t *y = out->data;
  for (int32_t oy = 0; oy < g.oh; oy++)
    for (int32_t ox = 0; ox < g.ow; ox++)
      for (int32_t o = 0; o < g.c_out; o++) {
        int32_t acc = bias ? bias[o] : 0, c = o / dm;
        for (int32_t ky = 0; ky < g.kh; ky++) {
          int64_t iy = (int64_t)oy * g.stride[0] - g.pad[0] + (int64_t)ky * g.dil[0];
          if (iy < 0 || iy >= g.h) continue;
          for (int32_t kx = 0; kx < g.kw; kx++) {
            int64_t ix = (int64_t)ox * g.stride[1] - g.pad[1] + (int64_t)kx * g.dil[1];
            if (ix < 0 || ix >= g.w) continue;
            int32_t xv = x[((size_t)iy * g.w + ix) * g.c_in + c] + io;
            acc = pk_fx_add(acc, xv * wt[((size_t)ky * g.kw + kx) * g.c_out + o]);
          }
        }
        *y++ = pk_cm_requant_out(acc, mult[o], shift[o], oo, lo, hi);
      }
  return PTERA_OK;
}

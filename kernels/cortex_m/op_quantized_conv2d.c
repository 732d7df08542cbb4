/* cortex_m::quantized_conv2d.out(Tensor input, Tensor weight, Tensor? bias, int[] stride,
 * int[] padding, int[] dilation, int input_offset, int output_offset,
 * Tensor requantize_multipliers, Tensor requantize_shifts, int activation_min,
 * int activation_max, Tensor scratch, *, Tensor(a!) out) (docs/CORTEX_M.md §3.12): grouped int8
 * convolution of channels-last tensors with an OHWI weight [C_out, KH, KW, C_in/groups];
 *   acc = bias[oc] + sum over in-bounds taps of (x + input_offset) * w,
 *   y = clamp(requant(acc, mult[oc], shift[oc]) + output_offset, act_min, act_max). */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

ptera_status pk_cm_quantized_conv2d_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "cortex_m::quantized_conv2d.out";
  ptera_tensor *in, *w, *scratch, *out;
  const int32_t *bias, *mult, *shift;
  int32_t stride[2], pad[2], dil[2], io, oo, lo, hi;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 15));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 3, "stride", 2, 1, INT32_MAX, stride));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 4, "padding", 2, 0, INT32_MAX, pad));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 5, "dilation", 2, 1, INT32_MAX, dil));
  PK_TRY(pk_cm_get_int(ctx, op, args, 6, "input_offset", -127, 128, &io));
  PK_TRY(pk_cm_get_int(ctx, op, args, 7, "output_offset", INT8_MIN, INT8_MAX, &oo));
  PK_TRY(pk_cm_get_clamp(ctx, op, args, 10, 11, &lo, &hi));
  PK_TRY(pk_get_tensor(ctx, op, args, 12, "scratch", &scratch));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 13, "out", &out));
  if (w->dim != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weight' must be 4-D [C_out, KH, KW, C_in/groups]", op);
  PK_TRY(pk_cm_check_contiguous(ctx, op, "weight", w));
  int32_t cg = w->sizes[3];
  pk_conv2d_geom g;
  PK_TRY(pk_cm_conv_init(ctx, op, in, out, cg > 0 ? in->sizes[1] / cg : 0, w->sizes[1], w->sizes[2],
                         stride, pad, dil, NULL, &g));
  if (pk_conv2d_cin_g(&g) != cg || w->sizes[0] != g.c_out)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weight' [%d, %d, %d, %d] does not fit %d input and %d output "
                             "channels (groups = C_in / weight.size(3) must divide both)",
                             op, (int)w->sizes[0], (int)w->sizes[1], (int)w->sizes[2], (int)cg,
                             (int)g.c_in, (int)g.c_out);
  size_t oc = (size_t)g.c_out;
  PK_TRY(pk_cm_get_channel_params(ctx, op, args, 2, 8, oc, &bias, &mult, &shift));
  int32_t per_group = (int32_t)pk_conv2d_cout_g(&g);
  const int8_t *x = in->data, *wt = w->data;
  int8_t *y = out->data;
  for (int32_t n = 0; n < g.n; n++)
    for (int32_t oy = 0; oy < g.oh; oy++)
      for (int32_t ox = 0; ox < g.ow; ox++)
        for (int32_t o = 0; o < g.c_out; o++) {
          int32_t acc = bias ? bias[o] : 0, c0 = o / per_group * cg;
          for (int32_t ky = 0; ky < g.kh; ky++) {
            int64_t iy = (int64_t)oy * g.stride[0] - g.pad[0] + (int64_t)ky * g.dil[0];
            if (iy < 0 || iy >= g.h) continue;
            for (int32_t kx = 0; kx < g.kw; kx++) {
              int64_t ix = (int64_t)ox * g.stride[1] - g.pad[1] + (int64_t)kx * g.dil[1];
              if (ix < 0 || ix >= g.w) continue;
              const int8_t *xp = x + (((size_t)n * g.h + iy) * g.w + ix) * g.c_in + c0;
              const int8_t *wp = wt + (((size_t)o * g.kh + ky) * g.kw + kx) * cg;
              for (int32_t c = 0; c < cg; c++) acc = pk_fx_add(acc, (xp[c] + io) * wp[c]);
            }
          }
          *y++ = pk_cm_requant_out(acc, mult[o], shift[o], oo, lo, hi);
        }
  return PTERA_OK;
}

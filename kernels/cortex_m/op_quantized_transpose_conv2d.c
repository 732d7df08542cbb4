/* cortex_m::quantized_transpose_conv2d.out(Tensor input, Tensor weight, Tensor? bias,
 * int[] stride, int[] padding, int[] output_padding, int[] dilation, int input_offset,
 * int output_offset, Tensor requantize_multipliers, Tensor requantize_shifts,
 * int activation_min, int activation_max, Tensor scratch, Tensor output_scratch, *,
 * Tensor(a!) out) (docs/CORTEX_M.md §3.14): channels-last int8, weight [C_out, KH, KW, C_in],
 * groups and dilation 1. Input pixel (iy, ix) reaches output (iy*stride - pad + ky, ...);
 * computed here in gather form, requantization as quantized_conv2d. */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

/* The input index feeding output o through tap k, or -1. */
static int64_t src_index(int32_t o, int32_t k, int32_t stride, int32_t pad, int32_t size) {
  int64_t t = (int64_t)o + pad - k;
  if (t < 0 || t % stride) return -1;
  t /= stride;
  return t < size ? t : -1;
}

ptera_status pk_cm_quantized_transpose_conv2d_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                  size_t nargs) {
  static const char op[] = "cortex_m::quantized_transpose_conv2d.out";
  ptera_tensor *in, *w, *scratch, *oscratch, *out;
  const int32_t *bias, *mult, *shift;
  int32_t stride[2], pad[2], opad[2], dil[2], io, oo, lo, hi;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 17));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 3, "stride", 2, 1, INT32_MAX, stride));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 4, "padding", 2, 0, INT32_MAX, pad));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 5, "output_padding", 2, 0, INT32_MAX, opad));
  PK_TRY(pk_cm_get_ints(ctx, op, args, 6, "dilation", 2, 1, 1, dil));
  PK_TRY(pk_cm_get_int(ctx, op, args, 7, "input_offset", -127, 128, &io));
  PK_TRY(pk_cm_get_int(ctx, op, args, 8, "output_offset", INT8_MIN, INT8_MAX, &oo));
  PK_TRY(pk_cm_get_clamp(ctx, op, args, 11, 12, &lo, &hi));
  PK_TRY(pk_get_tensor(ctx, op, args, 13, "scratch", &scratch));
  PK_TRY(pk_get_tensor(ctx, op, args, 14, "output_scratch", &oscratch));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 15, "out", &out));
  if (w->dim != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weight' must be 4-D [C_out, KH, KW, C_in]", op);
  PK_TRY(pk_cm_check_contiguous(ctx, op, "weight", w));
  pk_conv2d_geom g;
  PK_TRY(pk_cm_conv_init(ctx, op, in, out, 1, w->sizes[1], w->sizes[2], stride, pad, dil, opad, &g));
  if (w->sizes[0] != g.c_out || w->sizes[3] != g.c_in)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weight' [%d, _, _, %d] must be [C_out = %d, KH, KW, C_in = %d]",
                             op, (int)w->sizes[0], (int)w->sizes[3], (int)g.c_out, (int)g.c_in);
  size_t oc = (size_t)g.c_out;
  PK_TRY(pk_cm_get_channel_params(ctx, op, args, 2, 9, oc, &bias, &mult, &shift));
  const int8_t *x = in->data, *wt = w->data;
  int8_t *y = out->data;
  for (int32_t n = 0; n < g.n; n++)
    for (int32_t oy = 0; oy < g.oh; oy++)
      for (int32_t ox = 0; ox < g.ow; ox++)
        for (int32_t o = 0; o < g.c_out; o++) {
          int32_t acc = bias ? bias[o] : 0;
          for (int32_t ky = 0; ky < g.kh; ky++) {
            int64_t iy = src_index(oy, ky, g.stride[0], g.pad[0], g.h);
            if (iy < 0) continue;
            for (int32_t kx = 0; kx < g.kw; kx++) {
              int64_t ix = src_index(ox, kx, g.stride[1], g.pad[1], g.w);
              if (ix < 0) continue;
              const int8_t *xp = x + (((size_t)n * g.h + iy) * g.w + ix) * g.c_in;
              const int8_t *wp = wt + (((size_t)o * g.kh + ky) * g.kw + kx) * g.c_in;
              for (int32_t c = 0; c < g.c_in; c++) acc = pk_fx_add(acc, (xp[c] + io) * wp[c]);
            }
          }
          *y++ = pk_cm_requant_out(acc, mult[o], shift[o], oo, lo, hi);
        }
  return PTERA_OK;
}

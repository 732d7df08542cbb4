/* cortex_m::quantized_linear.out(Tensor input, Tensor weights, Tensor? bias,
 * Tensor? kernel_sum, int input_offset, int filter_offset, int output_offset,
 * int[] requantize_multipliers, int[] requantize_shifts, int activation_max,
 * int activation_min, *, Tensor(a!) out) (docs/CORTEX_M.md §3.8): input [..., K] int8,
 * weights [N, K], out [..., N];
 *   acc = sum_k (x + input_offset) * (w + filter_offset) + bias[o], or, given kernel_sum,
 *   acc = kernel_sum[o] + sum_k x * (w + filter_offset);
 *   y = clamp(requant(acc, m[0], s[0]) + output_offset, activation_min, activation_max). */
#include "builtin.h"
#include "cortex_m/cm_util.h"
#include "cortex_m/fixed_point.h"

ptera_status pk_cm_quantized_linear_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "cortex_m::quantized_linear.out";
  ptera_tensor *in, *w, *out;
  const int32_t *bias, *ksum;
  int32_t io, fo, oo, lo, hi;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 13));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 1, "weights", &w));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 11, "out", &out));
  if (w->dim != 2 || in->dim < 1 || out->dim != in->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weights' must be 2-D [N, K] and 'input' [..., K] and 'out' "
                             "[..., N] of one rank >= 1",
                             op);
  size_t n = (size_t)w->sizes[0], k = (size_t)w->sizes[1];
  bool ok = (size_t)in->sizes[in->dim - 1] == k && (size_t)out->sizes[out->dim - 1] == n;
  for (size_t d = 0; ok && d + 1 < in->dim; d++) ok = in->sizes[d] == out->sizes[d];
  if (!ok) {
    char si[96], sw[96], so[96];
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' %s, 'weights' %s and 'out' %s do not match "
                             "([..., K] x [N, K] -> [..., N])",
                             op, pk_fmt_shape(si, sizeof si, in->sizes, in->dim),
                             pk_fmt_shape(sw, sizeof sw, w->sizes, w->dim),
                             pk_fmt_shape(so, sizeof so, out->sizes, out->dim));
  }
  PK_TRY(pk_cm_check_contiguous(ctx, op, "input", in));
  PK_TRY(pk_cm_check_contiguous(ctx, op, "weights", w));
  PK_TRY(pk_cm_check_contiguous(ctx, op, "out", out));
  PK_TRY(pk_cm_get_i32_vec(ctx, op, args, 2, "bias", n, true, &bias));
  PK_TRY(pk_cm_get_i32_vec(ctx, op, args, 3, "kernel_sum", n, true, &ksum));
  PK_TRY(pk_cm_get_int(ctx, op, args, 4, "input_offset", -127, 128, &io));
  PK_TRY(pk_cm_get_int(ctx, op, args, 5, "filter_offset", -127, 128, &fo));
  PK_TRY(pk_cm_get_int(ctx, op, args, 6, "output_offset", INT8_MIN, INT8_MAX, &oo));
  int64_t ml[PTERA_MAX_DIM], sl[PTERA_MAX_DIM];
  size_t nm, ns;
  PK_TRY(pk_get_int_list(ctx, op, args, 7, "requantize_multipliers", ml, PTERA_MAX_DIM, &nm));
  PK_TRY(pk_get_int_list(ctx, op, args, 8, "requantize_shifts", sl, PTERA_MAX_DIM, &ns));
  if (nm < 1 || ns < 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'requantize_multipliers' and 'requantize_shifts' must not be empty",
                             op);
  if (ml[0] < INT32_MIN || ml[0] > INT32_MAX || sl[0] < -31 || sl[0] > 31)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: multiplier %lld or shift %lld out of range (int32, [-31, 31])", op,
                             (long long)ml[0], (long long)sl[0]);
  int32_t mult = (int32_t)ml[0], shift = (int32_t)sl[0];
  PK_TRY(pk_cm_get_clamp(ctx, op, args, 10, 9, &lo, &hi));
  const int8_t *x = in->data, *wt = w->data;
  int8_t *y = out->data;
  size_t rows = k ? in->numel / k : out->numel / (n ? n : 1);
  for (size_t r = 0; r < rows; r++)
    for (size_t o = 0; o < n; o++) {
      int32_t acc = ksum ? ksum[o] : bias ? bias[o] : 0;
      for (size_t j = 0; j < k; j++) {
        int32_t xv = x[r * k + j] + (ksum ? 0 : io), wv = wt[o * k + j] + fo;
        acc = pk_fx_add(acc, xv * wv);
      }
      y[r * n + o] = pk_cm_requant_out(acc, mult, shift, oo, lo, hi);
    }
  return PTERA_OK;
}

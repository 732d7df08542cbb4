/* quantized_decomposed::mixed_linear.out(Tensor input, Tensor weight,
 * Tensor weight_scales, Tensor? weight_zero_points, ScalarType? dtype=None, *,
 * Tensor(a!) out): out[i, j] = sum over groups G of (sum_{k in G} input[i, k] *
 * weight[j, k]) * scale[j, G] for input [M, N] (Float or Half), int8 weight [P, N],
 * scales [P] (one group) or [P, groups] of input's dtype (group size
 * ceil(N / groups)); out [M, P], Float or Half (dtype, when given, must be out's).
 * As ExecuTorch: zero points are not supported; sums in float. */
#include "builtin.h"
#include "portable/util/pk.h"

static bool ml_fh(int dt) { return dt == PTERA_DTYPE_FLOAT || dt == PTERA_DTYPE_HALF; }

ptera_status pk_mixed_linear_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::mixed_linear.out";
  ptera_tensor *in, *w, *sc, *zp, *out;
  bool has_dt;
  int odt = 0;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 7));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "weight_scales", &sc));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 3, "weight_zero_points", &zp));
  PK_TRY(pk_get_opt_dtype(ctx, op, args, 4, "dtype", &odt, &has_dt));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "out", &out));
  if (!ml_fh(in->dtype))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' must be Float or Half, got %s", op,
                             ptera_dtype_name(in->dtype));
  if (!ml_fh(out->dtype))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'out' must be Float or Half, got %s", op,
                             ptera_dtype_name(out->dtype));
  if (has_dt) PK_TRY(pk_check_dtype(ctx, op, "out", out, odt));
  PK_TRY(pk_check_dtype(ctx, op, "weight", w, PTERA_DTYPE_CHAR));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "weight_scales", sc));
  if (zp)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight_zero_points' are not supported", op);
  if (in->dim != 2 || w->dim != 2 || in->sizes[1] != w->sizes[1] || (sc->dim != 1 && sc->dim != 2) ||
      sc->sizes[0] != w->sizes[0] || (sc->dim == 2 && sc->sizes[1] <= 0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' [M, N], 'weight' [P, N] and 'weight_scales' [P] or [P, groups] do not "
                             "match",
                             op);
  int64_t M = in->sizes[0], N = in->sizes[1], P = w->sizes[0];
  int64_t g = sc->dim == 2 ? (N + sc->sizes[1] - 1) / sc->sizes[1] : N;
  if (g > 0 && sc->dim == 2 && (N + g - 1) / g > sc->sizes[1])
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight_scales' has too few groups", op);
  int32_t sizes[2] = {in->sizes[0], w->sizes[0]};
  PK_TRY(pk_resize(ctx, op, "out", out, 2, sizes));
  if (out->numel == 0) return PTERA_OK;
  int dt = in->dtype;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt), eo = (ptrdiff_t)ptera_dtype_size(out->dtype);
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < P; j++) {
      float sum = 0.0f;
      for (int64_t k = 0; k < N; k += g) {
        float psum = 0.0f;
        int64_t end = k + g < N ? k + g : N;
        for (int64_t k2 = k; k2 < end; k2++) {
          float x = pk_load_f32((const char *)in->data + (i * in->strides[0] + k2 * in->strides[1]) * es, dt);
          psum += x * (float)((const int8_t *)w->data)[j * w->strides[0] + k2 * w->strides[1]];
        }
        int64_t so = j * sc->strides[0] + (sc->dim == 2 ? (k / g) * sc->strides[1] : 0);
        sum += psum * pk_load_f32((const char *)sc->data + so * es, dt);
      }
      pk_store_f32((char *)out->data + (i * out->strides[0] + j * out->strides[1]) * eo, out->dtype, sum);
    }
  return PTERA_OK;
}

/* quantized_decomposed::mixed_mm.out(Tensor input, Tensor weight, Tensor weight_scales,
 * Tensor? weight_zero_points, *, Tensor(a!) out): out[i, j] = sum_k input[i, k] *
 * weight[k, j] * scale[k] for input [M, N] (Float or Half), int8 weight [N, P] and
 * scales [N] of input's dtype; out [M, P] of input's dtype. As ExecuTorch: zero
 * points are not supported, the sum runs over k in float, each term (x * w) * s. */
#include "builtin.h"
#include "portable/util/pk.h"

static bool mm_fh(int dt) { return dt == PTERA_DTYPE_FLOAT || dt == PTERA_DTYPE_HALF; }

ptera_status pk_mixed_mm_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::mixed_mm.out";
  ptera_tensor *in, *w, *sc, *zp, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "weight_scales", &sc));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 3, "weight_zero_points", &zp));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "out", &out));
  if (!mm_fh(in->dtype))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' must be Float or Half, got %s", op,
                             ptera_dtype_name(in->dtype));
  PK_TRY(pk_check_dtype(ctx, op, "weight", w, PTERA_DTYPE_CHAR));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "weight_scales", sc));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "out", out));
  if (zp)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight_zero_points' are not supported", op);
  if (in->dim != 2 || w->dim != 2 || sc->dim != 1 || in->sizes[1] != w->sizes[0] || sc->sizes[0] != w->sizes[0])
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' [M, N], 'weight' [N, P] and 'weight_scales' [N] do not match", op);
  int32_t sizes[2] = {in->sizes[0], w->sizes[1]};
  PK_TRY(pk_resize(ctx, op, "out", out, 2, sizes));
  if (out->numel == 0) return PTERA_OK;
  int dt = in->dtype;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);
  int64_t M = in->sizes[0], N = in->sizes[1], P = w->sizes[1];
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < P; j++) {
      float sum = 0.0f;
      for (int64_t k = 0; k < N; k++) {
        float x = pk_load_f32((const char *)in->data + (i * in->strides[0] + k * in->strides[1]) * es, dt);
        float q = (float)((const int8_t *)w->data)[k * w->strides[0] + j * w->strides[1]];
        float s = pk_load_f32((const char *)sc->data + k * sc->strides[0] * es, dt);
        sum += x * q * s;
      }
      pk_store_f32((char *)out->data + (i * out->strides[0] + j * out->strides[1]) * es, dt, sum);
    }
  return PTERA_OK;
}

/* quantized_decomposed::embedding_byte.out(Tensor weight, Tensor weight_scales,
 * Tensor? weight_zero_points, int weight_quant_min, int weight_quant_max,
 * Tensor indices, *, Tensor(a!) out) and .dtype_out(..., Tensor indices, *,
 * ScalarType? dtype=None, Tensor(a!) out): out[..., j] = (w[i, j] - zp[i, g]) *
 * scale[i, g] for i = indices[...], g = j / (D / groups), in float. weight is a
 * Byte/Char [V, D]; weight_scales (a float dtype) is [V] or [V, groups];
 * zero points (optional) have the scales' shape. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "quantized/quant_util.h"

static ptera_status embedding_byte(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   bool has_dtype_arg) {
  pk_embedding_args e;
  PK_TRY(pk_get_embedding_args(ctx, op, args, has_dtype_arg, &e));
  ptera_tensor *w = e.w, *sc = e.sc, *zp = e.zp, *ix = e.ix, *out = e.out;
  int odt = e.has_odt ? e.odt : sc->dtype;
  if (w->dtype != PTERA_DTYPE_BYTE && w->dtype != PTERA_DTYPE_CHAR)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight' must be Byte or Char, got %s",
                             op, ptera_dtype_name(w->dtype));
  if (w->dim != 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight' must be 2-D", op);
  PK_TRY(pk_check_float(ctx, op, "weight_scales", sc));
  PK_TRY(pk_check_float(ctx, op, "out", out));
  PK_TRY(pk_check_dtype(ctx, op, "out", out, odt));
  if (ix->dtype != PTERA_DTYPE_LONG && ix->dtype != PTERA_DTYPE_INT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'indices' must be Long or Int, got %s",
                             op, ptera_dtype_name(ix->dtype));
  int64_t V = w->sizes[0], D = w->sizes[1];
  int64_t groups;
  PK_TRY(pk_embedding_check_scales(ctx, op, sc, V, D, &groups));
  if (zp) {
    bool ok = zp->dim == sc->dim && (zp->dtype == PTERA_DTYPE_FLOAT || pk_is_int(zp->dtype) ||
                                     zp->dtype == sc->dtype);
    for (size_t k = 0; ok && k < sc->dim; k++) ok = zp->sizes[k] == sc->sizes[k];
    if (!ok)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'weight_zero_points' must have the shape of 'weight_scales'", op);
  }
  if (ix->dim + 1 > PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'indices' rank is too large", op);
  PK_TRY(pk_embedding_resize(ctx, op, ix, V, D, out));
  if (out->numel == 0) return PTERA_OK;
  int64_t gsize = D / groups;
  for (size_t n = 0; n < ix->numel; n++) {
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "indices", (const char *)ix->data + pk_flat_off(ix, n), ix->dtype,
                             V, false, &v));
    for (int64_t g = 0; g < groups; g++) { /* one scale / zero point per group */
      size_t qi = (size_t)(v * groups + g);
      float s = pk_load_f32((const char *)sc->data + pk_flat_off(sc, qi), sc->dtype);
      float z = zp ? pk_load_f32((const char *)zp->data + pk_flat_off(zp, qi), zp->dtype) : 0.0f;
      for (int64_t j = g * gsize; j < (g + 1) * gsize; j++) {
        int64_t widx[2] = {v, j};
        float q = (float)pk_load_i64((const char *)w->data + pk_idx_off(w, widx), w->dtype);
        size_t of = n * (size_t)D + (size_t)j;
        pk_store_f32((char *)out->data + pk_flat_off(out, of), out->dtype, (q - z) * s);
      }
    }
  }
  return PTERA_OK;
}

ptera_status pk_embedding_byte_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::embedding_byte.out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  return embedding_byte(ctx, op, args, false);
}

ptera_status pk_embedding_byte_dtype_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::embedding_byte.dtype_out";
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  return embedding_byte(ctx, op, args, true);
}

/* weight is a Byte [V, P] holding 8/nbit values per byte, value k of a byte in
 * bits from the most significant end for 4-bit (even index = high nibble) and
 * from the least significant end for 2-bit (index % 4 = k -> bits 2k..2k+1), as
 * ExecuTorch packs them; stored values are unsigned with an implicit offset of
 * 2^(nbit-1) (2-bit: 0..3 -> -2..1, 4-bit: 0..15 -> -8..7). Row i of the table,
 * D = P * 8/nbit wide, is dequantized as out[..., j] = (q - zp[i, g]) * scale[i, g]
 * in float, g = j / (D / groups). */
#include "quantized/embedding_xbit.h"
#include "quantized/quant_util.h"

#include "portable/util/index_ext.h"

static int32_t xbit_value(const uint8_t *row, ptrdiff_t cs, int64_t j, int nbit) {
  if (nbit == 2) {
    unsigned b = row[(j >> 2) * cs];
    return (int32_t)((b >> (2 * (j & 3))) & 3u) - 2;
  }
  unsigned b = row[(j >> 1) * cs];
  return (int32_t)((j & 1) ? (b & 15u) : (b >> 4)) - 8;
}

ptera_status pk_embedding_xbit(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, bool has_dtype,
                               int nbit) {
  pk_embedding_args e;
  PK_TRY(pk_get_embedding_args(ctx, op, args, has_dtype, &e));
  ptera_tensor *w = e.w, *sc = e.sc, *zp = e.zp, *ix = e.ix, *out = e.out;
  int64_t qmin = e.qmin, qmax = e.qmax;
  int odt = e.has_odt ? e.odt : -1;
  if (w->dtype != PTERA_DTYPE_BYTE)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight' must be Byte, got %s", op,
                             ptera_dtype_name(w->dtype));
  if (w->dim != 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight' must be 2-D, got rank %u", op,
                             (unsigned)w->dim);
  PK_TRY(pk_check_float(ctx, op, "weight_scales", sc));
  PK_TRY(pk_check_float(ctx, op, "out", out));
  if (odt >= 0) PK_TRY(pk_check_dtype(ctx, op, "out", out, odt));
  if (ix->dtype != PTERA_DTYPE_LONG && ix->dtype != PTERA_DTYPE_INT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'indices' must be Long or Int, got %s", op,
                             ptera_dtype_name(ix->dtype));
  if (qmin > qmax)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weight_quant_min' %lld is greater than 'weight_quant_max' %lld", op,
                             (long long)qmin, (long long)qmax);
  int64_t V = w->sizes[0], D = (int64_t)w->sizes[1] * (8 / nbit);
  int64_t groups;
  PK_TRY(pk_embedding_check_scales(ctx, op, sc, V, D, &groups));
  if (zp) {
    bool ok = zp->dim == sc->dim && pk_is_real(zp->dtype);
    for (size_t k = 0; ok && k < sc->dim; k++) ok = zp->sizes[k] == sc->sizes[k];
    if (!ok)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'weight_zero_points' must be real with the shape of 'weight_scales'", op);
  }
  if (ix->dim + 1 > PTERA_MAX_DIM || D > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'indices' rank or embedding size is too large", op);
  PK_TRY(pk_embedding_resize(ctx, op, ix, V, D, out));
  if (out->numel == 0) return PTERA_OK;
  int64_t gsize = D / groups;
  ptrdiff_t cs = (ptrdiff_t)w->strides[1];
  for (size_t n = 0; n < ix->numel; n++) {
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "indices", (const char *)ix->data + pk_flat_off(ix, n), ix->dtype, V, false,
                             &v));
    const uint8_t *row = (const uint8_t *)w->data + v * w->strides[0];
    for (int64_t g = 0; g < groups; g++) { /* one scale / zero point per group */
      size_t qi = (size_t)(v * groups + g);
      float s = pk_load_f32((const char *)sc->data + pk_flat_off(sc, qi), sc->dtype);
      float z = zp ? pk_load_f32((const char *)zp->data + pk_flat_off(zp, qi), zp->dtype) : 0.0f;
      for (int64_t j = g * gsize; j < (g + 1) * gsize; j++) {
        float q = (float)xbit_value(row, cs, j, nbit);
        size_t of = n * (size_t)D + (size_t)j;
        pk_store_f32((char *)out->data + pk_flat_off(out, of), out->dtype, (q - z) * s);
      }
    }
  }
  return PTERA_OK;
}

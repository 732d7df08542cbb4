#include "quantized/quant_util.h"

#include "portable/util/index_ext.h"

ptera_status pk_check_quant_range(ptera_kernel_ctx *ctx, const char *op, int dtype, int64_t qmin,
                                  int64_t qmax) {
  if (dtype != PTERA_DTYPE_BYTE && dtype != PTERA_DTYPE_CHAR && dtype != PTERA_DTYPE_SHORT &&
      dtype != PTERA_DTYPE_UINT16 && dtype != PTERA_DTYPE_INT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'dtype' %s is not a supported quantized dtype", op,
                             ptera_dtype_name(dtype));
  int64_t lo, hi;
  pk_int_range(dtype, &lo, &hi);
  if (qmin > qmax || qmin < lo || qmax > hi)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: quant range [%lld, %lld] is invalid for dtype %s ([%lld, %lld])",
                             op, (long long)qmin, (long long)qmax, ptera_dtype_name(dtype),
                             (long long)lo, (long long)hi);
  return PTERA_OK;
}

ptera_status pk_get_qparams(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                            int64_t *qmin, int64_t *qmax, int *dtype) {
  PK_TRY(pk_get_int(ctx, op, args, i, "quant_min", qmin));
  PK_TRY(pk_get_int(ctx, op, args, i + 1, "quant_max", qmax));
  return pk_get_dtype(ctx, op, args, i + 2, "dtype", dtype);
}

ptera_status pk_check_quantize_io(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                  int dtype, int64_t qmin, int64_t qmax, const ptera_tensor *out) {
  PK_TRY(pk_check_float(ctx, op, "input", in));
  PK_TRY(pk_check_quant_range(ctx, op, dtype, qmin, qmax));
  return pk_check_dtype(ctx, op, "out", out, dtype);
}

ptera_status pk_check_dequantize_io(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                    int dtype, int64_t qmin, int64_t qmax, const ptera_tensor *out,
                                    int out_dtype) {
  PK_TRY(pk_check_quant_range(ctx, op, dtype, qmin, qmax));
  PK_TRY(pk_check_dtype(ctx, op, "input", in, dtype));
  PK_TRY(pk_check_float(ctx, op, "out", out));
  if (out_dtype >= 0) PK_TRY(pk_check_dtype(ctx, op, "out", out, out_dtype));
  return PTERA_OK;
}

ptera_status pk_get_embedding_args(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   bool has_dtype, pk_embedding_args *e) {
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "weight", &e->w));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "weight_scales", &e->sc));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "weight_zero_points", &e->zp));
  PK_TRY(pk_get_int(ctx, op, args, 3, "weight_quant_min", &e->qmin));
  PK_TRY(pk_get_int(ctx, op, args, 4, "weight_quant_max", &e->qmax));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "indices", &e->ix));
  e->has_odt = false;
  e->odt = 0;
  if (has_dtype) PK_TRY(pk_get_opt_dtype(ctx, op, args, 6, "dtype", &e->odt, &e->has_odt));
  return pk_get_tensor(ctx, op, args, has_dtype ? 7 : 6, "out", &e->out);
}

ptera_status pk_embedding_check_scales(ptera_kernel_ctx *ctx, const char *op,
                                       const ptera_tensor *sc, int64_t V, int64_t D,
                                       int64_t *groups) {
  *groups = sc->dim == 2 ? sc->sizes[1] : 1;
  if ((sc->dim != 1 && sc->dim != 2) || sc->sizes[0] != V || *groups <= 0 || D % *groups != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weight_scales' must be [%lld] or [%lld, groups] with groups dividing %lld",
                             op, (long long)V, (long long)V, (long long)D);
  return PTERA_OK;
}

ptera_status pk_embedding_resize(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *ix,
                                 int64_t V, int64_t D, ptera_tensor *out) {
  for (size_t n = 0; n < ix->numel; n++) {
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "indices", (const char *)ix->data + pk_flat_off(ix, n), ix->dtype,
                             V, false, &v));
  }
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t k = 0; k < ix->dim; k++) sizes[k] = ix->sizes[k];
  sizes[ix->dim] = (int32_t)D;
  return pk_resize(ctx, op, "out", out, ix->dim + 1u, sizes);
}

#include "quantized/quant_util.h"

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

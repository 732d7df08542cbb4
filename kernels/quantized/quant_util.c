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

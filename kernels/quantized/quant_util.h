/* Argument checks shared by the quantized_decomposed ops. */
#ifndef PK_QUANT_UTIL_H
#define PK_QUANT_UTIL_H

#include "portable/util/pk.h"

/* dtype is an integer quantized storage dtype (Byte, Char, Short, UInt16, Int) and
 * quant_min <= quant_max lie within its range. */
PT_FUNC ptera_status pk_check_quant_range(ptera_kernel_ctx *ctx, const char *op, int dtype,
                                          int64_t qmin, int64_t qmax);

#endif

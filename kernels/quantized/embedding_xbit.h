/* Sub-byte quantized embeddings (quantized_decomposed::embedding_2bit / _4bit). */
#ifndef PK_EMBEDDING_XBIT_H
#define PK_EMBEDDING_XBIT_H

#include "portable/util/pk.h"

/* Shared body of embedding_{2,4}bit.out (has_dtype false: args are weight,
 * weight_scales, weight_zero_points?, quant_min, quant_max, indices, out) and
 * .dtype_out (has_dtype true: a ScalarType? before out). nbit is 2 or 4. */
PT_FUNC ptera_status pk_embedding_xbit(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       bool has_dtype, int nbit);

#endif

/* Argument checks shared by the quantized_decomposed ops. */
#ifndef PK_QUANT_UTIL_H
#define PK_QUANT_UTIL_H

#include "portable/util/pk.h"

/* dtype is an integer quantized storage dtype (Byte, Char, Short, UInt16, Int) and
 * quant_min <= quant_max lie within its range. */
PT_FUNC ptera_status pk_check_quant_range(ptera_kernel_ctx *ctx, const char *op, int dtype,
                                          int64_t qmin, int64_t qmax);

/* Arguments of the quantized embedding ops: weight, weight_scales,
 * weight_zero_points?, weight_quant_min, weight_quant_max, indices[, ScalarType?
 * dtype (has_dtype)], out. */
typedef struct pk_embedding_args {
  ptera_tensor *w, *sc, *zp, *ix, *out;
  int64_t qmin, qmax;
  bool has_odt;
  int odt;
} pk_embedding_args;
PT_FUNC ptera_status pk_get_embedding_args(ptera_kernel_ctx *ctx, const char *op,
                                           ptera_value **args, bool has_dtype,
                                           pk_embedding_args *e);
/* weight_scales is [V] or [V, groups] with groups dividing D; *groups set. */
PT_FUNC ptera_status pk_embedding_check_scales(ptera_kernel_ctx *ctx, const char *op,
                                               const ptera_tensor *sc, int64_t V, int64_t D,
                                               int64_t *groups);
/* Every index in [0, V) (negative not wrapped); out resized to indices' shape + [D]. */
PT_FUNC ptera_status pk_embedding_resize(ptera_kernel_ctx *ctx, const char *op,
                                         const ptera_tensor *ix, int64_t V, int64_t D,
                                         ptera_tensor *out);

/* int quant_min, int quant_max, ScalarType dtype at args[i], args[i+1], args[i+2]. */
PT_FUNC ptera_status pk_get_qparams(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                    size_t i, int64_t *qmin, int64_t *qmax, int *dtype);
/* quantize: input floating; valid quant range for dtype; out of dtype. */
PT_FUNC ptera_status pk_check_quantize_io(ptera_kernel_ctx *ctx, const char *op,
                                          const ptera_tensor *in, int dtype, int64_t qmin,
                                          int64_t qmax, const ptera_tensor *out);
/* dequantize: valid quant range for dtype; input of dtype; out floating and, when
 * out_dtype >= 0, of out_dtype. */
PT_FUNC ptera_status pk_check_dequantize_io(ptera_kernel_ctx *ctx, const char *op,
                                            const ptera_tensor *in, int dtype, int64_t qmin,
                                            int64_t qmax, const ptera_tensor *out, int out_dtype);

#endif

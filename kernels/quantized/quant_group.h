/* Element-wise (de)quantization with a scale and zero point per group of
 * elements (per tensor, per channel along an axis, per token), using the same
 * float arithmetic as quantize_per_tensor / dequantize_per_tensor. */
#ifndef PK_QUANT_GROUP_H
#define PK_QUANT_GROUP_H

#include "quantized/quant_util.h"

/* How elements map to groups: group = (flat / inner) % count. Per tensor:
 * inner = numel (or 1), count = 1; per channel on axis a: inner = prod(sizes[a+1:]),
 * count = sizes[a]; per token: inner = last dim size, count = tokens. */
typedef struct pk_qgroups {
  size_t inner, count;
  const ptera_tensor *scales;      /* Float or Double, count elements */
  const ptera_tensor *zero_points; /* Int or Long, count elements; NULL = 0 */
} pk_qgroups;

/* Storage for one group covering a whole tensor with a scalar scale and zero
 * point (the per-tensor ops taking float/int arguments). */
typedef struct pk_qscalar {
  ptera_tensor scale, zero_point;
  double s;
  int64_t z;
} pk_qscalar;
/* Points g (inner 0, count 1) at st, filled with scale and zero_point. */
PT_FUNC void pk_qgroups_scalar(pk_qgroups *g, pk_qscalar *st, double scale, int64_t zero_point);

/* Checks scales / zero_points dtypes and element counts (count each). */
PT_FUNC ptera_status pk_qgroups_check(ptera_kernel_ctx *ctx, const char *op, const pk_qgroups *g);
/* Groups along axis of in (rank >= 1) for per-channel ops; checks them. */
PT_FUNC ptera_status pk_qgroups_axis(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                     int64_t axis, const ptera_tensor *scales,
                                     const ptera_tensor *zero_points, pk_qgroups *g);
/* One group per token (row along the last dim of in, rank >= 1); checks them. */
PT_FUNC ptera_status pk_qgroups_token(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                      const ptera_tensor *scales, const ptera_tensor *zero_points,
                                      pk_qgroups *g);
/* out (quantized dtype, resized to in) = quantize(in); in is a float dtype. */
PT_FUNC void pk_quantize_groups(const ptera_tensor *in, ptera_tensor *out, const pk_qgroups *g,
                                int64_t qmin, int64_t qmax);
/* out (float dtype, resized to in) = dequantize(in). */
PT_FUNC void pk_dequantize_groups(const ptera_tensor *in, ptera_tensor *out, const pk_qgroups *g);

#endif

/* float32 fast path of batch norm with running statistics (no training):
 * per-channel parameters m = mean, r = 1/sqrt(var + eps) (double, rounded to
 * float), w and b (1 and 0 when absent), then one vectorized pass over the
 * contiguous NCHW planes or the channels-last pixels, split over the method's
 * threads. Results are bit for bit the portable kernel's (the same four
 * roundings per element). The parameters are computed once at prepare when
 * weight, bias and the statistics are constant, else per call in temp memory. */
#ifndef PK_BATCH_NORM_FAST_H
#define PK_BATCH_NORM_FAST_H

#include "portable/util/pk.h"

/* Prepare step: precomputes the parameters (constant Float inputs) or
 * declares the per-call workspace. Never fails for an unsupported case. */
PT_FUNC ptera_status pk_batch_norm_fast_prepare(ptera_kernel_prepare_ctx *ctx,
                                                const ptera_tensor *in, const ptera_tensor *w,
                                                const ptera_tensor *b, const ptera_tensor *rm,
                                                const ptera_tensor *rv, double eps);
/* out = batch_norm(in) for arguments already checked (pk_batch_norm_check);
 * false when the caller must run the portable kernel (not Float, no temp). */
PT_FUNC bool pk_fast_batch_norm_f32(ptera_kernel_ctx *ctx, const ptera_tensor *in,
                                    const ptera_tensor *w, const ptera_tensor *b,
                                    const ptera_tensor *rm, const ptera_tensor *rv, double eps,
                                    ptera_tensor *out);

#endif

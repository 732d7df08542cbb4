/* Shared body of batch, layer and group normalization. The input is viewed in
 * row-major order as [outer, C, inner]; element (a, c, j) belongs to statistics
 * group a*gs + c/gdiv and takes weight[c] and bias[c]:
 *   batch norm  gs = 0, gdiv = 1      (one group per channel)
 *   layer norm  gs = 1, gdiv = C      (one group per row, C = normalized numel, inner 1)
 *   group norm  gs = G, gdiv = C / G  (one group per (sample, channel group)) */
#ifndef PK_NORM_H
#define PK_NORM_H

#include "portable/util/pk.h"

typedef struct pk_norm_shape {
  size_t outer, C, inner, gs, gdiv, ngroups;
} pk_norm_shape;

/* Per-group mean and biased variance (two passes in double) into mean[] and
 * var[] (ngroups each). A group of no elements gets mean 0 and variance NaN
 * (0/0), as PyTorch. */
PT_FUNC void pk_norm_stats(const pk_norm_shape *s, const ptera_tensor *in, double *mean,
                           double *var);
/* out = (x - mean[g]) * invstd[g] * weight[c] + bias[c] in the compute type of
 * in's dtype (float for Float/Half/BFloat16: mean and invstd rounded to float
 * first); weight and bias may be NULL (1 and 0). */
PT_FUNC void pk_norm_apply(const pk_norm_shape *s, const ptera_tensor *in, ptera_tensor *out,
                           const double *mean, const double *invstd, const ptera_tensor *weight,
                           const ptera_tensor *bias);

/* Checks shared by the normalization kernels: in floating and row-major
 * (contiguous), t (may be NULL) of in's dtype, row-major, with numel n. */
PT_FUNC ptera_status pk_norm_check_param(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                         const ptera_tensor *t, const ptera_tensor *in, size_t n);
PT_FUNC ptera_status pk_norm_check_input(ptera_kernel_ctx *ctx, const char *op,
                                         const ptera_tensor *in);
/* Resizes out (named name) to sizes, requires in's dtype and a row-major layout. */
PT_FUNC ptera_status pk_norm_prepare_out(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                         ptera_tensor *out, const ptera_tensor *in, size_t dim,
                                         const int32_t *sizes);
/* Writes v[0..n) into a row-major tensor of a floating dtype. */
PT_FUNC void pk_norm_store(ptera_tensor *t, const double *v, size_t n);
/* Two scratch arrays of n doubles each; MemoryAllocationFailed when out of temp. */
PT_FUNC ptera_status pk_norm_temp(ptera_kernel_ctx *ctx, const char *op, size_t n, double **a,
                                  double **b);



/* The argument checks of pk_batch_norm, out resized to in's shape and layout
 * and mean_out/invstd_out to [C] (training) or [0]. */
PT_FUNC ptera_status pk_batch_norm_check(ptera_kernel_ctx *ctx, const char *op,
                                         const ptera_tensor *in, const ptera_tensor *weight,
                                         const ptera_tensor *bias,
                                         const ptera_tensor *running_mean,
                                         const ptera_tensor *running_var, bool training,
                                         ptera_tensor *out, ptera_tensor *mean_out,
                                         ptera_tensor *invstd_out);
/* Batch normalization over channel dim 1 of in (rank >= 2; contiguous, or
 * channels-last with out in the same layout). Without training,
 * running_mean/running_var are the statistics and mean_out/invstd_out are
 * resized to [0]; with training, batch statistics are used, written to
 * mean_out/invstd_out ([C]) and, when running_mean/running_var are given,
 * folded into them with momentum (the variance unbiased), as PyTorch. */
PT_FUNC ptera_status pk_batch_norm(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *in,
                                   ptera_tensor *weight, ptera_tensor *bias,
                                   ptera_tensor *running_mean, ptera_tensor *running_var,
                                   bool training, double momentum, double eps, ptera_tensor *out,
                                   ptera_tensor *mean_out, ptera_tensor *invstd_out);
#endif

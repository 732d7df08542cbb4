#include "portable/util/norm.h"

/* Walks in row-major order, running the body with e (element index), g (group) and c (channel). */
#define PK_NORM_FOR(s, ...)                                                    \
  do {                                                                         \
    size_t e = 0;                                                              \
    for (size_t a = 0; a < (s)->outer; a++)                                    \
      for (size_t c = 0; c < (s)->C; c++) {                                    \
        size_t g = a * (s)->gs + c / (s)->gdiv;                                \
        for (size_t j = 0; j < (s)->inner; j++, e++) { __VA_ARGS__ }               \
      }                                                                        \
  } while (0)

void pk_norm_stats(const pk_norm_shape *s, const ptera_tensor *in, double *mean, double *var) {
  int id = in->dtype;
  size_t es = ptera_dtype_size(id);
  const char *x = (const char *)in->data;
  double count = s->ngroups ? (double)(s->outer * s->C * s->inner) / (double)s->ngroups : 0.0;
  for (size_t g = 0; g < s->ngroups; g++) mean[g] = var[g] = 0.0;
  PK_NORM_FOR(s, { (void)c; mean[g] += pk_load_f64(x + e * es, id); });
  for (size_t g = 0; g < s->ngroups; g++) mean[g] = count > 0.0 ? mean[g] / count : 0.0;
  PK_NORM_FOR(s, {
    (void)c;
    double d = pk_load_f64(x + e * es, id) - mean[g];
    var[g] += d * d;
  });
  for (size_t g = 0; g < s->ngroups; g++) var[g] = var[g] / count;
}

void pk_norm_apply(const pk_norm_shape *s, const ptera_tensor *in, ptera_tensor *out,
                   const double *mean, const double *invstd, const ptera_tensor *weight,
                   const ptera_tensor *bias) {
  int id = in->dtype, od = out->dtype;
  int wd = weight ? weight->dtype : id, bd = bias ? bias->dtype : id;
  size_t es = ptera_dtype_size(id), os = ptera_dtype_size(od);
  size_t ws = ptera_dtype_size(wd), bs = ptera_dtype_size(bd);
  const char *x = (const char *)in->data;
  char *y = (char *)out->data;
  const char *w = weight ? (const char *)weight->data : NULL;
  const char *b = bias ? (const char *)bias->data : NULL;
  switch (pk_compute_type(id)) {
    case PK_CT_F32:
      PK_NORM_FOR(s, {
        float m = (float)mean[g], r = (float)invstd[g];
        float wv = w ? pk_load_f32(w + c * ws, wd) : 1.0f;
        float bv = b ? pk_load_f32(b + c * bs, bd) : 0.0f;
        float t = (pk_load_f32(x + e * es, id) - m) * r; /* separate statements: no FMA */
        t = t * wv;
        pk_store_f32(y + e * os, od, t + bv);
      });
      break;
    case PK_CT_F64:
    case PK_CT_I64:
      PK_NORM_FOR(s, {
        double wv = w ? pk_load_f64(w + c * ws, wd) : 1.0;
        double bv = b ? pk_load_f64(b + c * bs, bd) : 0.0;
        double t = (pk_load_f64(x + e * es, id) - mean[g]) * invstd[g];
        t = t * wv;
        pk_store_f64(y + e * os, od, t + bv);
      });
      break;
  }
}

ptera_status pk_norm_check_input(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in) {
  PK_TRY(pk_check_float(ctx, op, "input", in));
  if (!pk_is_rowmajor(in))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' must have the default (contiguous) dim order", op);
  return PTERA_OK;
}

ptera_status pk_norm_check_param(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                 const ptera_tensor *t, const ptera_tensor *in, size_t n) {
  if (!t) return PTERA_OK;
  PK_TRY(pk_check_dtype(ctx, op, name, t, in->dtype));
  if (t->numel != n)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has %zu elements, expected %zu",
                             op, name, t->numel, n);
  if (!pk_is_rowmajor(t))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' must have the default (contiguous) dim order", op, name);
  return PTERA_OK;
}

ptera_status pk_norm_prepare_out(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                 ptera_tensor *out, const ptera_tensor *in, size_t dim,
                                 const int32_t *sizes) {
  PK_TRY(pk_check_dtype(ctx, op, name, out, in->dtype));
  PK_TRY(pk_resize(ctx, op, name, out, dim, sizes));
  if (!pk_is_rowmajor(out))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' must have the default (contiguous) dim order", op, name);
  return PTERA_OK;
}

void pk_norm_store(ptera_tensor *t, const double *v, size_t n) {
  size_t es = ptera_dtype_size(t->dtype);
  for (size_t i = 0; i < n; i++) pk_store_f64((char *)t->data + i * es, t->dtype, v[i]);
}

ptera_status pk_norm_temp(ptera_kernel_ctx *ctx, const char *op, size_t n, double **a, double **b) {
  size_t m = n ? n : 1;
  if (m > SIZE_MAX / (2 * sizeof(double)))
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: %zu statistics groups", op, n);
  double *p = (double *)ptera_kernel_temp(ctx, 2 * m * sizeof(double), _Alignof(double));
  if (!p)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no temp memory for %zu bytes of statistics", op,
                             2 * m * sizeof(double));
  *a = p;
  *b = p + m;
  return PTERA_OK;
}

ptera_status pk_batch_norm_check(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                                 const ptera_tensor *weight, const ptera_tensor *bias,
                                 const ptera_tensor *running_mean, const ptera_tensor *running_var,
                                 bool training, ptera_tensor *out, ptera_tensor *mean_out,
                                 ptera_tensor *invstd_out) {
  PK_TRY(pk_check_float(ctx, op, "input", in));
  if (in->dim < 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' must have at least 2 dims (N, C, ...), got %u", op,
                             (unsigned)in->dim);
  bool cl = !pk_is_rowmajor(in);
  if (cl && !pk_is_channels_last(in))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' must have the contiguous or the channels-last dim order",
                             op);
  size_t C = (size_t)in->sizes[1];
  PK_TRY(pk_norm_check_param(ctx, op, "weight", weight, in, C));
  PK_TRY(pk_norm_check_param(ctx, op, "bias", bias, in, C));
  PK_TRY(pk_norm_check_param(ctx, op, "running_mean", running_mean, in, C));
  PK_TRY(pk_norm_check_param(ctx, op, "running_var", running_var, in, C));
  if (!training && (!running_mean || !running_var))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'running_mean' and 'running_var' are needed when not training",
                             op);
  int32_t csize[1] = {training ? (int32_t)C : 0};
  if (cl) {
    PK_TRY(pk_check_dtype(ctx, op, "out", out, in->dtype));
    PK_TRY(pk_resize(ctx, op, "out", out, in->dim, in->sizes));
    if (!pk_same_layout(in, out))
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'out' must have the dim order of the channels-last 'input'",
                               op);
  } else {
    PK_TRY(pk_norm_prepare_out(ctx, op, "out", out, in, in->dim, in->sizes));
  }
  PK_TRY(pk_norm_prepare_out(ctx, op, "save_mean", mean_out, in, 1, csize));
  PK_TRY(pk_norm_prepare_out(ctx, op, "save_invstd", invstd_out, in, 1, csize));
  return PTERA_OK;
}

ptera_status pk_batch_norm(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *in,
                           ptera_tensor *weight, ptera_tensor *bias, ptera_tensor *running_mean,
                           ptera_tensor *running_var, bool training, double momentum, double eps,
                           ptera_tensor *out, ptera_tensor *mean_out, ptera_tensor *invstd_out) {
  PK_TRY(pk_batch_norm_check(ctx, op, in, weight, bias, running_mean, running_var, training, out,
                             mean_out, invstd_out));
  size_t C = (size_t)in->sizes[1];
  /* row-major: [N, C, inner]; channels-last: [N * spatial, C, 1] in memory */
  pk_norm_shape s = {(size_t)in->sizes[0], C, 1, 0, 1, C};
  for (size_t d = 2; d < in->dim; d++) s.inner *= (size_t)in->sizes[d];
  if (!pk_is_rowmajor(in)) {
    s.outer *= s.inner;
    s.inner = 1;
  }
  double *mean = NULL, *var = NULL;
  PK_TRY(pk_norm_temp(ctx, op, C, &mean, &var));
  if (training) {
    pk_norm_stats(&s, in, mean, var);
    double n = (double)(s.outer * s.inner);
    if (running_mean && running_var) {
      size_t es = ptera_dtype_size(in->dtype);
      for (size_t c = 0; c < C; c++) {
        char *rm = (char *)running_mean->data + c * es, *rv = (char *)running_var->data + c * es;
        double unbiased = n > 1.0 ? var[c] * n / (n - 1.0) : (double)NAN;
        pk_store_f64(rm, running_mean->dtype,
                     (1.0 - momentum) * pk_load_f64(rm, running_mean->dtype) + momentum * mean[c]);
        pk_store_f64(rv, running_var->dtype,
                     (1.0 - momentum) * pk_load_f64(rv, running_var->dtype) + momentum * unbiased);
      }
    }
  } else {
    size_t es = ptera_dtype_size(in->dtype);
    for (size_t c = 0; c < C; c++) {
      mean[c] = pk_load_f64((const char *)running_mean->data + c * es, running_mean->dtype);
      var[c] = pk_load_f64((const char *)running_var->data + c * es, running_var->dtype);
    }
  }
  for (size_t c = 0; c < C; c++) var[c] = 1.0 / sqrt(var[c] + eps); /* now invstd */
  pk_norm_apply(&s, in, out, mean, var, weight, bias);
  if (training) {
    pk_norm_store(mean_out, mean, C);
    pk_norm_store(invstd_out, var, C);
  }
  return PTERA_OK;
}

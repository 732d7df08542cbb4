/* quantized_decomposed::choose_qparams.Tensor_out(Tensor input, int quant_min,
 * int quant_max, float eps, ScalarType dtype, *, Tensor(a!) scale_out,
 * Tensor(b!) zero_point_out) and
 * quantized_decomposed::choose_qparams_per_token_asymmetric.out(Tensor input,
 * ScalarType dtype, *, Tensor(a!) scale_out, Tensor(b!) zero_point_out):
 * asymmetric scale / zero point from the range [min(x, 0), max(x, 0)], as
 * ExecuTorch computes them (fbgemm's ChooseQuantizationParams: double scale, 0.1
 * when degenerate, a 6.1e-5 floor, the zero point from the smaller-error end,
 * nudged with nearbyint). eps is unused, as in ExecuTorch. Per token: one pair
 * per row along the last dim with range [-128, 127]; outputs shaped [..., 1]. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "quantized/quant_util.h"

static void calc_qparams(float mn, float mx, int32_t qmin, int32_t qmax, double *out_scale,
                         int64_t *out_zp) {
  const float small = 6.1e-5f;
  if (mn > 0.0f) mn = 0.0f;
  if (mx < 0.0f) mx = 0.0f;
  double scale = ((double)mx - (double)mn) / (double)(qmax - qmin);
  if ((float)scale == 0.0f || isinf(1.0f / (float)scale)) scale = 0.1;
  if (scale < small) {
    float org = (float)scale;
    scale = small;
    if (mn == 0.0f) {
      mx = small * (float)(qmax - qmin);
    } else if (mx == 0.0f) {
      mn = -small * (float)(qmax - qmin);
    } else {
      float amp = small / org;
      mn *= amp;
      mx *= amp;
    }
  }
  double zmin = (double)qmin - (double)mn / scale, zmax = (double)qmax - (double)mx / scale;
  double emin = fabs((double)qmin) - fabs((double)mn / scale);
  double emax = fabs((double)qmax) - fabs((double)mx / scale);
  double z0 = emin < emax ? zmin : zmax;
  int64_t zp;
  if (!(z0 >= (double)qmin)) /* also NaN */
    zp = qmin;
  else if (z0 > (double)qmax)
    zp = qmax;
  else
    zp = (int64_t)nearbyint(z0);
  *out_scale = scale;
  *out_zp = zp;
}

/* min / max over count elements of t starting at logical position first. */
static void range_of(const ptera_tensor *t, size_t first, size_t count, float *mn, float *mx) {
  float lo = 0.0f, hi = 0.0f;
  for (size_t e = 0; e < count; e++) {
    float v = pk_load_f32((const char *)t->data + pk_flat_off(t, first + e), t->dtype);
    if (e == 0 || v < lo) lo = v;
    if (e == 0 || v > hi) hi = v;
  }
  *mn = lo;
  *mx = hi;
}

static ptera_status check_outs(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *s,
                               const ptera_tensor *z) {
  PK_TRY(pk_check_dtype(ctx, op, "scale_out", s, PTERA_DTYPE_DOUBLE));
  return pk_check_dtype(ctx, op, "zero_point_out", z, PTERA_DTYPE_LONG);
}

ptera_status pk_choose_qparams_tensor_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "quantized_decomposed::choose_qparams.Tensor_out";
  ptera_tensor *in, *so, *zo;
  int64_t qmin, qmax;
  double eps;
  int dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "quant_min", &qmin));
  PK_TRY(pk_get_int(ctx, op, args, 2, "quant_max", &qmax));
  PK_TRY(pk_get_double(ctx, op, args, 3, "eps", &eps));
  PK_TRY(pk_get_dtype(ctx, op, args, 4, "dtype", &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "scale_out", &so));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "zero_point_out", &zo));
  PK_TRY(pk_check_dtype(ctx, op, "input", in, PTERA_DTYPE_FLOAT));
  PK_TRY(check_outs(ctx, op, so, zo));
  if (qmin >= qmax || qmin < INT32_MIN || qmax > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'quant_min' %lld must be below 'quant_max' %lld", op,
                             (long long)qmin, (long long)qmax);
  if (so->numel != 1 || zo->numel != 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'scale_out' and 'zero_point_out' must have one element", op);
  float mn, mx;
  range_of(in, 0, in->numel, &mn, &mx);
  calc_qparams(mn, mx, (int32_t)qmin, (int32_t)qmax, (double *)so->data, (int64_t *)zo->data);
  return PTERA_OK;
}

ptera_status pk_choose_qparams_per_token_asymmetric_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                        size_t nargs) {
  static const char op[] = "quantized_decomposed::choose_qparams_per_token_asymmetric.out";
  ptera_tensor *in, *so, *zo;
  int dtype;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_dtype(ctx, op, args, 1, "dtype", &dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "scale_out", &so));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "zero_point_out", &zo));
  PK_TRY(pk_check_float(ctx, op, "input", in));
  PK_TRY(check_outs(ctx, op, so, zo));
  if (in->dim == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' must have rank >= 1", op);
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t k = 0; k < in->dim; k++) sizes[k] = in->sizes[k];
  sizes[in->dim - 1] = 1;
  PK_TRY(pk_resize(ctx, op, "scale_out", so, in->dim, sizes));
  PK_TRY(pk_resize(ctx, op, "zero_point_out", zo, in->dim, sizes));
  size_t last = (size_t)in->sizes[in->dim - 1];
  for (size_t t = 0; t < so->numel; t++) {
    float mn, mx;
    double s;
    int64_t z;
    range_of(in, t * last, last, &mn, &mx);
    calc_qparams(mn, mx, -128, 127, &s, &z);
    *(double *)((char *)so->data + pk_flat_off(so, t)) = s;
    *(int64_t *)((char *)zo->data + pk_flat_off(zo, t)) = z;
  }
  return PTERA_OK;
}

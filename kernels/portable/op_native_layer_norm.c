/* aten::native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight,
 *   Tensor? bias, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
 * Normalizes over the trailing dims given by normalized_shape: out0 like input,
 * out1 the mean and out2 the reciprocal standard deviation (biased variance),
 * both of shape input.sizes[:axis] + [1] * len(normalized_shape). weight and bias
 * have normalized_shape's element count. The return slot is a TensorList. */
#include "builtin.h"
#include "portable/util/norm.h"
#include "portable/util/fast_f32.h"

ptera_status pk_native_layer_norm_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::native_layer_norm.out";
  ptera_tensor *in, *w, *b, *out, *mo, *ro;
  int64_t ns[PTERA_MAX_DIM];
  size_t nns;
  double eps;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "normalized_shape", ns, PTERA_MAX_DIM, &nns));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "weight", &w));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 3, "bias", &b));
  PK_TRY(pk_get_double(ctx, op, args, 4, "eps", &eps));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "out0", &out));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out1", &mo));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "out2", &ro));
  PK_TRY(pk_norm_check_input(ctx, op, in));
  if (nns == 0 || nns > in->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'normalized_shape' has %zu dims; it needs 1 to %u (input's rank)",
                             op, nns, (unsigned)in->dim);
  size_t axis = in->dim - nns, M = 1, K = 1;
  int32_t ssizes[PTERA_MAX_DIM];
  for (size_t d = 0; d < in->dim; d++) {
    if (d < axis) {
      M *= (size_t)in->sizes[d];
      ssizes[d] = in->sizes[d];
    } else {
      if (ns[d - axis] != in->sizes[d])
        return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                                 "%s: 'normalized_shape'[%zu] is %lld but input dim %zu has size %d",
                                 op, d - axis, (long long)ns[d - axis], d, (int)in->sizes[d]);
      K *= (size_t)in->sizes[d];
      ssizes[d] = 1;
    }
  }
  PK_TRY(pk_norm_check_param(ctx, op, "weight", w, in, K));
  PK_TRY(pk_norm_check_param(ctx, op, "bias", b, in, K));
  PK_TRY(pk_norm_prepare_out(ctx, op, "out0", out, in, in->dim, in->sizes));
  PK_TRY(pk_norm_prepare_out(ctx, op, "out1", mo, in, in->dim, ssizes));
  PK_TRY(pk_norm_prepare_out(ctx, op, "out2", ro, in, in->dim, ssizes));
  pk_norm_shape s = {M, K, 1, 1, K ? K : 1, M};
  double *mean, *var;
  PK_TRY(pk_norm_temp(ctx, op, M, &mean, &var));
  if (!(in->dtype == PTERA_DTYPE_FLOAT && K > 0 &&
        pk_fast_layer_norm_f32(ctx, (const float *)in->data, M, K,
                               w ? (const float *)w->data : NULL, b ? (const float *)b->data : NULL,
                               eps, (float *)out->data, mean, var))) {
    pk_norm_stats(&s, in, mean, var);
    for (size_t g = 0; g < M; g++) var[g] = 1.0 / sqrt(var[g] + eps); /* now rstd */
    pk_norm_apply(&s, in, out, mean, var, w, b);
  }
  pk_norm_store(mo, mean, M);
  pk_norm_store(ro, var, M);
  return PTERA_OK;
}

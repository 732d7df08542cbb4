/* aten::native_group_norm.out(Tensor input, Tensor? weight, Tensor? bias, SymInt N,
 *   SymInt C, SymInt HxW, int group, float eps, *, Tensor(a!) out0, Tensor(b!) out1,
 *   Tensor(c!) out2)
 * input is [N, C, *] with HxW elements per channel; channels split into group
 * groups normalized together: out0 like input, out1 the mean and out2 the
 * reciprocal standard deviation (biased variance), both [N, group]; weight and
 * bias are per channel ([C]). The return slot is a TensorList. */
#include "builtin.h"
#include "portable/util/norm.h"

ptera_status pk_native_group_norm_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::native_group_norm.out";
  ptera_tensor *in, *w, *b, *out, *mo, *ro;
  int64_t N, C, HxW, G;
  double eps;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 12));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "bias", &b));
  PK_TRY(pk_get_int(ctx, op, args, 3, "N", &N));
  PK_TRY(pk_get_int(ctx, op, args, 4, "C", &C));
  PK_TRY(pk_get_int(ctx, op, args, 5, "HxW", &HxW));
  PK_TRY(pk_get_int(ctx, op, args, 6, "group", &G));
  PK_TRY(pk_get_double(ctx, op, args, 7, "eps", &eps));
  PK_TRY(pk_get_tensor(ctx, op, args, 8, "out0", &out));
  PK_TRY(pk_get_tensor(ctx, op, args, 9, "out1", &mo));
  PK_TRY(pk_get_tensor(ctx, op, args, 10, "out2", &ro));
  PK_TRY(pk_norm_check_input(ctx, op, in));
  if (in->dim < 2 || N != in->sizes[0] || C != in->sizes[1])
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' must be [N, C, ...] with N = %lld and C = %lld", op,
                             (long long)N, (long long)C);
  if (G <= 0 || G > INT32_MAX || C % G != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'group' (%lld) must be positive and divide C (%lld)", op,
                             (long long)G, (long long)C);
  size_t inner = 1;
  for (size_t d = 2; d < in->dim; d++) inner *= (size_t)in->sizes[d];
  if (HxW < 0 || (uint64_t)HxW != (uint64_t)inner)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'HxW' is %lld but input has %zu elements per channel", op,
                             (long long)HxW, inner);
  PK_TRY(pk_norm_check_param(ctx, op, "weight", w, in, (size_t)C));
  PK_TRY(pk_norm_check_param(ctx, op, "bias", b, in, (size_t)C));
  int32_t ssizes[2] = {(int32_t)N, (int32_t)G};
  PK_TRY(pk_norm_prepare_out(ctx, op, "out0", out, in, in->dim, in->sizes));
  PK_TRY(pk_norm_prepare_out(ctx, op, "out1", mo, in, 2, ssizes));
  PK_TRY(pk_norm_prepare_out(ctx, op, "out2", ro, in, 2, ssizes));
  size_t ng = (size_t)N * (size_t)G;
  pk_norm_shape s = {(size_t)N, (size_t)C, inner, (size_t)G, (size_t)(C / G), ng};
  double *mean, *var;
  PK_TRY(pk_norm_temp(ctx, op, ng, &mean, &var));
  pk_norm_stats(&s, in, mean, var);
  for (size_t g = 0; g < ng; g++) var[g] = 1.0 / sqrt(var[g] + eps); /* now rstd */
  pk_norm_apply(&s, in, out, mean, var, w, b);
  pk_norm_store(mo, mean, ng);
  pk_norm_store(ro, var, ng);
  return PTERA_OK;
}

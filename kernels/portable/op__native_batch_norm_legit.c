/* aten::_native_batch_norm_legit.out(Tensor input, Tensor? weight, Tensor? bias,
 *   Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum,
 *   float eps, *, Tensor(d!) out, Tensor(e!) save_mean, Tensor(f!) save_invstd)
 * aten::_native_batch_norm_legit.no_stats_out(Tensor input, Tensor? weight,
 *   Tensor? bias, bool training, float momentum, float eps, *, Tensor(a!) out,
 *   Tensor(b!) save_mean, Tensor(c!) save_invstd)
 * Returns (out, save_mean, save_invstd); the return slot is a TensorList. With
 * training, batch statistics normalize and save_mean/save_invstd get them ([C]);
 * without, the running statistics do and save_mean/save_invstd are [0].
 * no_stats has no running statistics, so it always uses batch statistics. */
#include "builtin.h"
#include "portable/util/norm.h"

ptera_status pk_native_batch_norm_legit_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                            size_t nargs) {
  static const char op[] = "aten::_native_batch_norm_legit.out";
  ptera_tensor *in, *w, *b, *rm, *rv, *out, *mo, *io;
  bool training;
  double momentum, eps;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 12));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "bias", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "running_mean", &rm));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "running_var", &rv));
  PK_TRY(pk_get_bool(ctx, op, args, 5, "training", &training));
  PK_TRY(pk_get_double(ctx, op, args, 6, "momentum", &momentum));
  PK_TRY(pk_get_double(ctx, op, args, 7, "eps", &eps));
  PK_TRY(pk_get_tensor(ctx, op, args, 8, "out", &out));
  PK_TRY(pk_get_tensor(ctx, op, args, 9, "save_mean", &mo));
  PK_TRY(pk_get_tensor(ctx, op, args, 10, "save_invstd", &io));
  return pk_batch_norm(ctx, op, in, w, b, rm, rv, training, momentum, eps, out, mo, io);
}

ptera_status pk_native_batch_norm_legit_no_stats_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                     size_t nargs) {
  static const char op[] = "aten::_native_batch_norm_legit.no_stats_out";
  ptera_tensor *in, *w, *b, *out, *mo, *io;
  bool training;
  double momentum, eps;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 10));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "bias", &b));
  PK_TRY(pk_get_bool(ctx, op, args, 3, "training", &training));
  PK_TRY(pk_get_double(ctx, op, args, 4, "momentum", &momentum));
  PK_TRY(pk_get_double(ctx, op, args, 5, "eps", &eps));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "save_mean", &mo));
  PK_TRY(pk_get_tensor(ctx, op, args, 8, "save_invstd", &io));
  (void)training; /* no running statistics: batch statistics either way */
  return pk_batch_norm(ctx, op, in, w, b, NULL, NULL, true, momentum, eps, out, mo, io);
}

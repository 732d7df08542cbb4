/* aten::_native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight,
 *   Tensor? bias, Tensor running_mean, Tensor running_var, float momentum,
 *   float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
 * out0 = (x - running_mean) / sqrt(running_var + eps) * weight + bias over
 * channel dim 1; out1 and out2 (the saved statistics) are resized to [0], as
 * ExecuTorch does. The return slot is a TensorList. */
#include "builtin.h"
#include "portable/util/norm.h"

ptera_status pk_native_batch_norm_legit_no_training_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                                        size_t nargs) {
  static const char op[] = "aten::_native_batch_norm_legit_no_training.out";
  ptera_tensor *in, *w, *b, *rm, *rv, *out, *mo, *io;
  double momentum, eps;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 11));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "bias", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "running_mean", &rm));
  PK_TRY(pk_get_tensor(ctx, op, args, 4, "running_var", &rv));
  PK_TRY(pk_get_double(ctx, op, args, 5, "momentum", &momentum));
  PK_TRY(pk_get_double(ctx, op, args, 6, "eps", &eps));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "out0", &out));
  PK_TRY(pk_get_tensor(ctx, op, args, 8, "out1", &mo));
  PK_TRY(pk_get_tensor(ctx, op, args, 9, "out2", &io));
  return pk_batch_norm(ctx, op, in, w, b, rm, rv, false, momentum, eps, out, mo, io);
}

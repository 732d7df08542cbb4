/* aten::_native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight,
 *   Tensor? bias, Tensor running_mean, Tensor running_var, float momentum,
 *   float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2)
 * out0 = (x - running_mean) / sqrt(running_var + eps) * weight + bias over
 * channel dim 1 (contiguous or channels-last input); out1 and out2 (the saved
 * statistics) are resized to [0], as ExecuTorch does. The return slot is a
 * TensorList. float32 runs the fast path of batch_norm_fast.h. */
#include "builtin.h"
#include "portable/util/batch_norm_fast.h"
#include "portable/util/norm.h"

static const ptera_tensor *bn_arg(ptera_value **args, size_t nargs, size_t i) {
  if (i >= nargs || !args[i] || args[i]->tag != PTERA_TAG_TENSOR) return NULL;
  return args[i]->u.tensor;
}

ptera_status pk_native_batch_norm_legit_no_training_prepare(ptera_kernel_prepare_ctx *ctx,
                                                            ptera_value **args, size_t nargs) {
  if (nargs != 11 || !args[6] || args[6]->tag != PTERA_TAG_DOUBLE) return PTERA_OK;
  return pk_batch_norm_fast_prepare(ctx, bn_arg(args, nargs, 0), bn_arg(args, nargs, 1),
                                    bn_arg(args, nargs, 2), bn_arg(args, nargs, 3),
                                    bn_arg(args, nargs, 4), args[6]->u.d);
}

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
  PK_TRY(pk_batch_norm_check(ctx, op, in, w, b, rm, rv, false, out, mo, io));
  if (pk_fast_batch_norm_f32(ctx, in, w, b, rm, rv, eps, out)) return PTERA_OK;
  return pk_batch_norm(ctx, op, in, w, b, rm, rv, false, momentum, eps, out, mo, io);
}

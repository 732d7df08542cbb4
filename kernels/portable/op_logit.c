/* aten::logit.out(Tensor self, float? eps=None, *, Tensor(a!) out):
 * log(x / (1 - x)) with x first clamped to [eps, 1 - eps] when eps is given.
 * self real or bool, out floating; computed in double. */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_logit_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::logit.out";
  ptera_tensor *in, *out;
  double eps = 0.0;
  bool has_eps = false;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  if (!(args[1] && args[1]->tag == PTERA_TAG_NONE)) {
    PK_TRY(pk_get_double(ctx, op, args, 1, "eps", &eps));
    has_eps = true;
  }
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_unary_float_prepare(ctx, op, in, out));
  pk_iter it;
  pk_iter_init1(&it, out, in);
  int id = in->dtype, od = out->dtype;
  double lo = eps, hi = 1.0 - eps;
  PK_ITER_FOR(it) {
    double x = pk_load_f64(PK_PTR(in->data, it, 1), id);
    if (has_eps) x = x < lo ? lo : x > hi ? hi : x; /* NaN passes through */
    pk_store_f64(PK_PTR(out->data, it, 0), od, log(x / (1.0 - x)));
  }
  return PTERA_OK;
}

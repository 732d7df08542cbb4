/* aten::neg.out(Tensor self, *, Tensor(a!) out) */
#include "builtin.h"
#include "portable/util/pk.h"
#include "cpu/vmath.h"

static double neg_f(double x) { return -x; }
static int64_t neg_i(int64_t x) { return pk_wsub(0, x); }

ptera_status pk_neg_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::neg.out";
  if (nargs == 3 && args[0] && args[0]->tag == PTERA_TAG_TENSOR && args[0]->u.tensor &&
      args[0]->u.tensor->dtype == PTERA_DTYPE_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: negation of a Bool tensor is not supported; use logical_not", op);
  return pk_unary_real_kernel_fast(ctx, op, args, nargs, neg_f, neg_i, false, PK_VU_NEG);
}

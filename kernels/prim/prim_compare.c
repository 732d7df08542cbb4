/* executorch_prim::eq/gt/lt/ge/le.Scalar (Bool, Bool also accepted), sym_not, sym_ite. */
#include "builtin.h"
#include "prim/prim_util.h"

enum { EQ, GT, LT, GE, LE };

static ptera_status cmp(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t nargs,
                        int kind) {
  ptera_value *ret;
  pk_scalar a, b;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 3, &ret));
  PK_TRY(pk_prim_scalar(ctx, op, args, 0, "a", true, &a));
  PK_TRY(pk_prim_scalar(ctx, op, args, 1, "b", true, &b));
  if ((a.tag == PTERA_TAG_BOOL) != (b.tag == PTERA_TAG_BOOL))
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE,
                             "%s: cannot compare a Bool with a number", op);
  int c;
  if (a.tag != PTERA_TAG_DOUBLE && b.tag != PTERA_TAG_DOUBLE) {
    c = a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    bool r = kind == EQ ? c == 0 : kind == GT ? c > 0 : kind == LT ? c < 0 : kind == GE ? c >= 0 : c <= 0;
    pk_prim_set_bool(ret, r);
  } else {
    double x = pk_scalar_f64(&a), y = pk_scalar_f64(&b);
    bool r = kind == EQ ? x == y : kind == GT ? x > y : kind == LT ? x < y : kind == GE ? x >= y : x <= y;
    pk_prim_set_bool(ret, r);
  }
  return PTERA_OK;
}

ptera_status pk_prim_eq_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return cmp(ctx, "executorch_prim::eq.Scalar", args, nargs, EQ);
}
ptera_status pk_prim_gt_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return cmp(ctx, "executorch_prim::gt.Scalar", args, nargs, GT);
}
ptera_status pk_prim_lt_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return cmp(ctx, "executorch_prim::lt.Scalar", args, nargs, LT);
}
ptera_status pk_prim_ge_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return cmp(ctx, "executorch_prim::ge.Scalar", args, nargs, GE);
}
ptera_status pk_prim_le_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return cmp(ctx, "executorch_prim::le.Scalar", args, nargs, LE);
}

ptera_status pk_prim_sym_not_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::sym_not.Scalar";
  ptera_value *ret;
  bool a;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 2, &ret));
  PK_TRY(pk_get_bool(ctx, op, args, 0, "a", &a));
  pk_prim_set_bool(ret, !a);
  return PTERA_OK;
}

ptera_status pk_prim_sym_ite_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::sym_ite.Scalar";
  ptera_value *ret;
  bool c;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 4, &ret));
  PK_TRY(pk_get_bool(ctx, op, args, 0, "b", &c));
  const ptera_value *pick = args[c ? 1 : 2];
  if (!pick || (pick->tag != PTERA_TAG_INT && pick->tag != PTERA_TAG_DOUBLE &&
                pick->tag != PTERA_TAG_BOOL))
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: the chosen branch must be a Scalar", op);
  ptera_value v = *pick;
  *ret = v;
  return PTERA_OK;
}

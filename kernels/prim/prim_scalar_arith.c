/* executorch_prim scalar arithmetic: add/sub/mul/floordiv/truediv/mod.Scalar,
 * floordiv.int, mod.int, sym_max/sym_min, neg, sym_float, sym_int, ceil/round/trunc.
 * Int op Int -> Int (wrapping), anything with a Double -> Double. */
#include "builtin.h"
#include "prim/prim_util.h"

enum { ADD, SUB, MUL };

static ptera_status arith(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t nargs,
                          int kind) {
  ptera_value *ret;
  pk_scalar a, b;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 3, &ret));
  PK_TRY(pk_prim_scalar(ctx, op, args, 0, "a", false, &a));
  PK_TRY(pk_prim_scalar(ctx, op, args, 1, "b", false, &b));
  if (a.tag == PTERA_TAG_INT && b.tag == PTERA_TAG_INT) {
    int64_t r = kind == ADD ? pk_wadd(a.i, b.i) : kind == SUB ? pk_wsub(a.i, b.i) : pk_wmul(a.i, b.i);
    pk_prim_set_int(ret, r);
  } else {
    double x = pk_scalar_f64(&a), y = pk_scalar_f64(&b);
    pk_prim_set_double(ret, kind == ADD ? x + y : kind == SUB ? x - y : x * y);
  }
  return PTERA_OK;
}

ptera_status pk_prim_add_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return arith(ctx, "executorch_prim::add.Scalar", args, nargs, ADD);
}
ptera_status pk_prim_sub_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return arith(ctx, "executorch_prim::sub.Scalar", args, nargs, SUB);
}
ptera_status pk_prim_mul_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return arith(ctx, "executorch_prim::mul.Scalar", args, nargs, MUL);
}

static ptera_status int_pair(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                             size_t nargs, ptera_value **ret, int64_t *a, int64_t *b) {
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 3, ret));
  if (!args[0] || args[0]->tag != PTERA_TAG_INT || !args[1] || args[1]->tag != PTERA_TAG_INT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: both operands must be Ints", op);
  *a = args[0]->u.i;
  *b = args[1]->u.i;
  return PTERA_OK;
}

static ptera_status int_div_check(ptera_kernel_ctx *ctx, const char *op, int64_t a, int64_t b) {
  if (b == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: integer division by zero", op);
  if (a == INT64_MIN && b == -1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: integer division overflows", op);
  return PTERA_OK;
}

ptera_status pk_prim_floordiv_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::floordiv.Scalar";
  ptera_value *ret;
  pk_scalar a, b;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 3, &ret));
  PK_TRY(pk_prim_scalar(ctx, op, args, 0, "a", false, &a));
  PK_TRY(pk_prim_scalar(ctx, op, args, 1, "b", false, &b));
  if (a.tag == PTERA_TAG_INT && b.tag == PTERA_TAG_INT) {
    PK_TRY(int_div_check(ctx, op, a.i, b.i));
    int64_t q = a.i / b.i, r = a.i % b.i;
    if (r != 0 && ((r < 0) != (b.i < 0))) q--;
    pk_prim_set_int(ret, q);
    return PTERA_OK;
  }
  double x = pk_scalar_f64(&a), y = pk_scalar_f64(&b);
  if (y == 0.0) {
    pk_prim_set_double(ret, x > 0 ? INFINITY : x < 0 ? -INFINITY : NAN);
    return PTERA_OK;
  }
  double m = fmod(x, y);
  double q = (x - m) / y;
  if (m != 0.0 && ((y < 0) != (m < 0))) q -= 1.0;
  pk_prim_set_double(ret, q);
  return PTERA_OK;
}

ptera_status pk_prim_truediv_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::truediv.Scalar";
  ptera_value *ret;
  pk_scalar a, b;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 3, &ret));
  PK_TRY(pk_prim_scalar(ctx, op, args, 0, "a", false, &a));
  PK_TRY(pk_prim_scalar(ctx, op, args, 1, "b", false, &b));
  pk_prim_set_double(ret, pk_scalar_f64(&a) / pk_scalar_f64(&b));
  return PTERA_OK;
}

/* C remainder (sign follows the dividend) of two Ints. */
static ptera_status c_mod(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t nargs) {
  ptera_value *ret;
  int64_t a = 0, b = 0;
  PK_TRY(int_pair(ctx, op, args, nargs, &ret, &a, &b));
  PK_TRY(int_div_check(ctx, op, a, b));
  pk_prim_set_int(ret, a % b);
  return PTERA_OK;
}

ptera_status pk_prim_mod_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return c_mod(ctx, "executorch_prim::mod.Scalar", args, nargs);
}

ptera_status pk_prim_floordiv_int(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::floordiv.int";
  ptera_value *ret;
  int64_t a = 0, b = 0;
  PK_TRY(int_pair(ctx, op, args, nargs, &ret, &a, &b));
  PK_TRY(int_div_check(ctx, op, a, b));
  pk_prim_set_int(ret, a / b); /* truncating, as upstream */
  return PTERA_OK;
}

ptera_status pk_prim_mod_int(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return c_mod(ctx, "executorch_prim::mod.int", args, nargs);
}

ptera_status pk_prim_sym_max_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  ptera_value *ret;
  int64_t a = 0, b = 0;
  PK_TRY(int_pair(ctx, "executorch_prim::sym_max.Scalar", args, nargs, &ret, &a, &b));
  pk_prim_set_int(ret, a > b ? a : b);
  return PTERA_OK;
}

ptera_status pk_prim_sym_min_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  ptera_value *ret;
  int64_t a = 0, b = 0;
  PK_TRY(int_pair(ctx, "executorch_prim::sym_min.Scalar", args, nargs, &ret, &a, &b));
  pk_prim_set_int(ret, a < b ? a : b);
  return PTERA_OK;
}

ptera_status pk_prim_neg_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::neg.Scalar";
  ptera_value *ret;
  pk_scalar a;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 2, &ret));
  PK_TRY(pk_prim_scalar(ctx, op, args, 0, "a", false, &a));
  if (a.tag == PTERA_TAG_INT)
    pk_prim_set_int(ret, pk_wsub(0, a.i));
  else
    pk_prim_set_double(ret, -a.d);
  return PTERA_OK;
}

ptera_status pk_prim_sym_float_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::sym_float.Scalar";
  ptera_value *ret;
  pk_scalar a;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 2, &ret));
  PK_TRY(pk_prim_scalar(ctx, op, args, 0, "a", true, &a));
  pk_prim_set_double(ret, pk_scalar_f64(&a));
  return PTERA_OK;
}

ptera_status pk_prim_sym_int_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "executorch_prim::sym_int.Scalar";
  ptera_value *ret;
  pk_scalar a;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 2, &ret));
  PK_TRY(pk_prim_scalar(ctx, op, args, 0, "a", true, &a));
  pk_prim_set_int(ret, pk_scalar_i64(&a));
  return PTERA_OK;
}

static ptera_status double_to_int(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                  size_t nargs, double (*fn)(double)) {
  ptera_value *ret;
  PK_TRY(pk_prim_ret(ctx, op, args, nargs, 2, &ret));
  if (!args[0] || args[0]->tag != PTERA_TAG_DOUBLE)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: 'a' must be a Double, got %s", op,
                             args[0] ? ptera_tag_name(args[0]->tag) : "nothing");
  pk_prim_set_int(ret, pk_f64_to_i64(fn(args[0]->u.d)));
  return PTERA_OK;
}

/* Python round(): half to even. */
static double round_even(double x) {
  double r = floor(x);
  double diff = x - r;
  if (diff > 0.5 || (diff == 0.5 && fmod(r, 2.0) != 0.0)) r += 1.0;
  return r;
}

ptera_status pk_prim_ceil_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return double_to_int(ctx, "executorch_prim::ceil.Scalar", args, nargs, ceil);
}
ptera_status pk_prim_round_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return double_to_int(ctx, "executorch_prim::round.Scalar", args, nargs, round_even);
}
ptera_status pk_prim_trunc_scalar(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  return double_to_int(ctx, "executorch_prim::trunc.Scalar", args, nargs, trunc);
}

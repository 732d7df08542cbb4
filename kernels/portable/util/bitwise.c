#include "portable/util/bitwise.h"

/* The binop loop hands each callback an int64 "alpha"; the shifts use it to
 * carry the common dtype's width in bits, negated for unsigned dtypes. */
static bool and_i64(int64_t a, int64_t b, int64_t w, int64_t *r) {
  (void)w;
  *r = a & b;
  return true;
}
static bool or_i64(int64_t a, int64_t b, int64_t w, int64_t *r) {
  (void)w;
  *r = a | b;
  return true;
}
static bool xor_i64(int64_t a, int64_t b, int64_t w, int64_t *r) {
  (void)w;
  *r = a ^ b;
  return true;
}
static bool shl_i64(int64_t a, int64_t b, int64_t w, int64_t *r) {
  int64_t bits = w < 0 ? -w : w;
  *r = (b < 0 || b >= bits) ? 0 : (int64_t)((uint64_t)a << b);
  return true;
}
static bool shr_i64(int64_t a, int64_t b, int64_t w, int64_t *r) {
  if (w < 0) { /* unsigned: logical shift of the value's bits */
    *r = (b < 0 || b >= -w) ? 0 : (int64_t)((uint64_t)a >> b);
    return true;
  }
  if (b < 0 || b >= w) b = w - 1;
  *r = a < 0 ? ~(~a >> b) : a >> b; /* arithmetic shift without relying on >> of negatives */
  return true;
}

static const pk_binop bit_fns[] = {
    {NULL, NULL, and_i64, 0}, {NULL, NULL, or_i64, 0}, {NULL, NULL, xor_i64, 0},
    {NULL, NULL, shl_i64, 0}, {NULL, NULL, shr_i64, 0},
};

static ptera_status check_operand(ptera_kernel_ctx *ctx, const char *op, const char *name, int dt) {
  if (!pk_is_int(dt) && dt != PTERA_DTYPE_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: '%s' has dtype %s; only integer and Bool dtypes are supported",
                             op, name, ptera_dtype_name(dt));
  return PTERA_OK;
}

static ptera_status check_common(ptera_kernel_ctx *ctx, const char *op, int common, bool shift,
                                 const ptera_tensor *a, const char *bkind) {
  if (!pk_is_int(common) && !(common == PTERA_DTYPE_BOOL && !shift))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'self' (%s) and 'other' (%s) promote to %s; only integer%s "
                             "dtypes are supported",
                             op, ptera_dtype_name(a->dtype), bkind, ptera_dtype_name(common), shift ? "" : " and Bool");
  return PTERA_OK;
}

ptera_status pk_bitwise_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               size_t nargs, bool scalar_other, pk_bitop fn) {
  ptera_tensor *a, *b = NULL, *out;
  pk_scalar s;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  if (scalar_other) PK_TRY(pk_get_scalar(ctx, op, args, 1, "other", &s));
  else PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  PK_TRY(check_operand(ctx, op, "self", a->dtype));
  PK_TRY(check_operand(ctx, op, "other", b ? b->dtype : pk_scalar_dtype(&s)));
  if (b) PK_TRY(pk_binary_prepare(ctx, op, a, b, out, &common));
  else PK_TRY(pk_scalar_prepare(ctx, op, a, &s, out, &common));
  bool shift = fn == PK_BIT_SHL || fn == PK_BIT_SHR;
  PK_TRY(check_common(ctx, op, common, shift, a,
                      b ? ptera_dtype_name(b->dtype) : ptera_tag_name(s.tag)));
  int64_t bits = (int64_t)ptera_dtype_size(common) * 8;
  pk_scalar width = {PTERA_TAG_INT, pk_is_unsigned(common) ? -bits : bits, 0.0};
  pk_scalar_tensor st;
  const ptera_tensor *other = b ? b : pk_scalar_tensor_init(&st, &s);
  return pk_binop_run(ctx, op, a, other, out, common, &width, &bit_fns[fn], "");
}

ptera_status pk_bitwise_not_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t nargs) {
  ptera_tensor *a, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 3));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  if (!pk_is_int(a->dtype) && a->dtype != PTERA_DTYPE_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'self' has dtype %s; only integer and Bool dtypes are supported",
                             op, ptera_dtype_name(a->dtype));
  PK_TRY(pk_check_can_cast(ctx, op, a->dtype, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, a));
  /* ~x is x ^ (all ones): True for Bool, -1 for integers (wrapped to the dtype). */
  pk_scalar ones = a->dtype == PTERA_DTYPE_BOOL ? (pk_scalar){PTERA_TAG_BOOL, 1, 1.0}
                                                : (pk_scalar){PTERA_TAG_INT, -1, -1.0};
  pk_scalar_tensor st;
  return pk_binop_run(ctx, op, a, pk_scalar_tensor_init(&st, &ones), out, a->dtype, NULL,
                      &bit_fns[PK_BIT_XOR], "");
}

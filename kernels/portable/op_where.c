/* aten::where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out):
 * out = condition ? self : other, broadcast over all three; dtype promote(self, other). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/fast_f32.h"

ptera_status pk_where_self_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::where.self_out";
  ptera_tensor *c, *a, *b, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "condition", &c));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "other", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  if (c->dtype != PTERA_DTYPE_BOOL && c->dtype != PTERA_DTYPE_BYTE)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'condition' has dtype %s; Bool is required", op,
                             ptera_dtype_name(c->dtype));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "other", b));
  int common;
  PK_TRY(pk_promote_pair(ctx, op, a, b, &common));
  PK_TRY(pk_check_can_cast(ctx, op, common, "out", out));
  const ptera_tensor *ts[3] = {c, a, b};
  const char *names[3] = {"condition", "self", "other"};
  PK_TRY(pk_resize_broadcast(ctx, op, ts, names, 3, out));
  if (common == PTERA_DTYPE_FLOAT && pk_fast_where_f32(ctx, c, a, b, out)) return PTERA_OK;
  pk_iter it;
  pk_iter_init(&it, out, ts, 3);
  int od = out->dtype;
  PK_ITER_FOR(it) {
    bool cv = *(const uint8_t *)PK_PTR(c->data, it, 1) != 0;
    const ptera_tensor *src = cv ? a : b;
    pk_convert_elem(PK_PTR(out->data, it, 0), od, PK_PTR(src->data, it, cv ? 2 : 3), src->dtype);
  }
  return PTERA_OK;
}

#include "portable/util/logical.h"

ptera_status pk_logical_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               size_t nargs, pk_logic fn) {
  ptera_tensor *a, *b, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "other", b));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  const ptera_tensor *ts[2] = {a, b};
  const char *names[2] = {"self", "other"};
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_broadcast_shape(ctx, op, ts, names, 2, sizes, &dim));
  PK_TRY(pk_resize(ctx, op, "out", out, dim, sizes));
  pk_iter it;
  pk_iter_init(&it, out, ts, 2);
  int ad = a->dtype, bd = b->dtype, od = out->dtype;
  PK_ITER_FOR(it) {
    bool x = pk_load_bool(PK_PTR(a->data, it, 1), ad), y = pk_load_bool(PK_PTR(b->data, it, 2), bd);
    bool r = fn == PK_LOGIC_AND ? (x && y) : fn == PK_LOGIC_OR ? (x || y) : (x != y);
    pk_store_i64(PK_PTR(out->data, it, 0), od, r);
  }
  return PTERA_OK;
}

#include "portable/util/logical.h"
#include "portable/util/elementwise.h"

ptera_status pk_logical_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               size_t nargs, pk_logic fn) {
  ptera_tensor *a, *b, *out;
  PK_TRY(pk_get_binary_tensors(ctx, op, args, nargs, &a, &b, &out));
  const ptera_tensor *ts[2] = {a, b};
  const char *names[2] = {"self", "other"};
  PK_TRY(pk_resize_broadcast(ctx, op, ts, names, 2, out));
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

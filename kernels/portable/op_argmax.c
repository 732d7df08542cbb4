/* aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out):
 * index (Long) of the first maximum; NaN counts as the maximum. dim=None reduces
 * the flattened tensor (keepdim then keeps every dim as 1). */
#include "builtin.h"
#include "portable/util/pk.h"

ptera_status pk_argmax_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::argmax.out";
  ptera_tensor *in, *out;
  int64_t dim;
  bool has_dim, keepdim;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_opt_int(ctx, op, args, 1, "dim", &dim, &has_dim));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "keepdim", &keepdim));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_check_dtype(ctx, op, "out", out, PTERA_DTYPE_LONG));
  pk_reduce_plan p;
  PK_TRY(pk_reduce_plan_init(ctx, op, in, &dim, has_dim ? 1 : 0, has_dim, keepdim, &p));
  if (p.reduced_numel == 0 || (!has_dim && in->numel == 0))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: cannot take the argmax of an empty dimension", op);
  PK_TRY(pk_resize(ctx, op, "out", out, p.out_dim, p.out_sizes));
  pk_iter outer, inner;
  pk_reduce_iters(&p, in, out, keepdim, &outer, &inner);
  int id = in->dtype;
  const char *ib = (const char *)in->data;
  bool fl = pk_is_float(id);
  PK_ITER_FOR(outer) {
    const char *base = ib + outer.off[1];
    int64_t best = 0, k = 0;
    double bf = 0.0;
    int64_t bi = 0;
    pk_iter_reset(&inner);
    PK_ITER_FOR(inner) {
      const char *e = base + inner.off[0];
      if (fl) {
        double v = pk_load_f64(e, id);
        if (k == 0 || (bf == bf && (v > bf || v != v))) {
          bf = v;
          best = k;
        }
      } else {
        int64_t v = pk_load_i64(e, id);
        if (id == PTERA_DTYPE_UINT64 ? (k == 0 || (uint64_t)v > (uint64_t)bi) : (k == 0 || v > bi)) {
          bi = v;
          best = k;
        }
      }
      k++;
    }
    *(int64_t *)PK_PTR(out->data, outer, 0) = best;
  }
  return PTERA_OK;
}

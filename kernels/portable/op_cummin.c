/* aten::cummin.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices):
 * running minimum along dim and the Long index where it was taken. Like PyTorch,
 * ties move the index to the later element and a NaN, once seen, stays (each new
 * NaN takes the index). */
#include <string.h>

#include "builtin.h"
#include "portable/util/extreme.h"
#include "portable/util/pk.h"

ptera_status pk_cummin_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::cummin.out";
  ptera_tensor *in, *vals, *idx;
  int64_t dim;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "values", &vals));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "indices", &idx));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "values", vals));
  PK_TRY(pk_check_dtype(ctx, op, "indices", idx, PTERA_DTYPE_LONG));
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, in->dim, &d));
  PK_TRY(pk_resize_like(ctx, op, "values", vals, in));
  PK_TRY(pk_resize_like(ctx, op, "indices", idx, in));
  pk_iter it;
  size_t len;
  ptrdiff_t step[3];
  const ptera_tensor *ops[3] = {vals, idx, in};
  pk_scan_init(&it, ops, 3, d, &len, step);
  int id = in->dtype;
  size_t es = ptera_dtype_size(id);
  PK_ITER_FOR(it) {
    const char *best = NULL;
    int64_t bk = 0;
    for (size_t i = 0; i < len; i++) {
      const char *e = PK_PTR(in->data, it, 2) + (ptrdiff_t)i * step[2];
      /* take e unless the held minimum is strictly smaller (or a NaN that e is not) */
      bool e_nan = pk_is_float(id) && pk_load_f64(e, id) != pk_load_f64(e, id);
      if (!best || e_nan || !pk_extreme_better(best, e, id, false)) {
        best = e;
        bk = (int64_t)i;
      }
      memcpy(PK_PTR(vals->data, it, 0) + (ptrdiff_t)i * step[0], best, es);
      *(int64_t *)(PK_PTR(idx->data, it, 1) + (ptrdiff_t)i * step[1]) = bk;
    }
  }
  return PTERA_OK;
}

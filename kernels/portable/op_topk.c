/* aten::topk.values(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, *,
 *   Tensor(a!) values, Tensor(b!) indices) -> (values, indices): the k largest (or
 *   smallest) elements along dim and their Long indices. NaN counts as larger than
 *   everything; equal elements keep index order; the result is always sorted. */
#include <string.h>

#include "builtin.h"
#include "portable/util/extreme.h"
#include "portable/util/pk.h"

/* -1, 0, 1 as x < y, x == y, x > y, NaN above everything. */
static int cmp(const char *x, const char *y, int dt) {
  if (pk_is_float(dt)) {
    double a = pk_load_f64(x, dt), b = pk_load_f64(y, dt);
    bool an = a != a, bn = b != b;
    if (an || bn) return an == bn ? 0 : an ? 1 : -1;
    return a < b ? -1 : a > b;
  }
  if (dt == PTERA_DTYPE_UINT64) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
  }
  int64_t a = pk_load_i64(x, dt), b = pk_load_i64(y, dt);
  return a < b ? -1 : a > b;
}

ptera_status pk_topk_values(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::topk.values";
  ptera_tensor *in, *vals, *idx;
  int64_t k, dim;
  bool largest, sorted;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 8));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "k", &k));
  PK_TRY(pk_get_int(ctx, op, args, 2, "dim", &dim));
  PK_TRY(pk_get_bool(ctx, op, args, 3, "largest", &largest));
  PK_TRY(pk_get_bool(ctx, op, args, 4, "sorted", &sorted));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "values", &vals));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "indices", &idx));
  (void)sorted;
  PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "values", vals));
  PK_TRY(pk_check_dtype(ctx, op, "indices", idx, PTERA_DTYPE_LONG));
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, in->dim, &d));
  int64_t len = in->dim ? in->sizes[d] : 1;
  if (k < 0 || k > len)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'k' (%lld) out of range for a dimension of size %lld", op,
                             (long long)k, (long long)len);
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t i = 0; i < in->dim; i++) sizes[i] = i == d ? (int32_t)k : in->sizes[i];
  PK_TRY(pk_resize(ctx, op, "values", vals, in->dim, sizes));
  PK_TRY(pk_resize(ctx, op, "indices", idx, in->dim, sizes));
  if (vals->numel == 0) return PTERA_OK;
  int64_t *order = ptera_kernel_temp(ctx, (size_t)len * sizeof(int64_t), _Alignof(int64_t));
  if (!order)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no temp memory for %lld indices", op, (long long)len);
  /* lines of in; values/indices walked with the same outer positions */
  pk_iter it;
  size_t n;
  ptrdiff_t step[3];
  const ptera_tensor *ops[3] = {in, vals, idx};
  /* ops must share a shape for pk_scan_init: the line dim differs (len vs k), so
   * the outer walk is over in with dim d collapsed; vals/idx strides are theirs. */
  pk_scan_init(&it, ops, 3, d, &n, step);
  int dt = in->dtype;
  size_t es = ptera_dtype_size(dt);
  int want = largest ? 1 : -1;
  PK_ITER_FOR(it) {
    const char *base = PK_PTR(in->data, it, 0);
    for (int64_t i = 0; i < len; i++) order[i] = i;
    for (int64_t i = 0; i < k; i++) {
      int64_t b = i;
      for (int64_t j = i + 1; j < len; j++) {
        int c = cmp(base + order[j] * step[0], base + order[b] * step[0], dt);
        if (c == want || (c == 0 && order[j] < order[b])) b = j;
      }
      int64_t t = order[i];
      order[i] = order[b];
      order[b] = t;
      memcpy(PK_PTR(vals->data, it, 1) + i * step[1], base + order[i] * step[0], es);
      *(int64_t *)(PK_PTR(idx->data, it, 2) + i * step[2]) = order[i];
    }
  }
  return PTERA_OK;
}

/* aten::cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out):
 * running sums along dim, accumulated in out's compute type (self converted to
 * out's dtype first). With dtype given, out must have it; otherwise self must be
 * castable to out. */
#include "builtin.h"
#include "portable/util/extreme.h"
#include "portable/util/pk.h"

ptera_status pk_cumsum_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::cumsum.out";
  ptera_tensor *in, *out;
  int64_t dim;
  int dtype = 0;
  bool has_dtype;
  size_t d;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_opt_dtype(ctx, op, args, 2, "dtype", &dtype, &has_dtype));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", in));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  if (has_dtype)
    PK_TRY(pk_check_dtype(ctx, op, "out", out, dtype));
  else
    PK_TRY(pk_check_can_cast(ctx, op, in->dtype, "out", out));
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, in->dim, &d));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  pk_iter it;
  size_t len;
  ptrdiff_t step[2];
  const ptera_tensor *ops[2] = {out, in};
  pk_scan_init(&it, ops, 2, d, &len, step);
  int id = in->dtype, od = out->dtype;
  switch (pk_compute_type(od)) {
    case PK_CT_F32:
      PK_ITER_FOR(it) {
        float acc = 0.0f;
        for (size_t i = 0; i < len; i++) {
          acc += pk_load_f32(PK_PTR(in->data, it, 1) + (ptrdiff_t)i * step[1], id);
          pk_store_f32(PK_PTR(out->data, it, 0) + (ptrdiff_t)i * step[0], od, acc);
        }
      }
      break;
    case PK_CT_F64:
      PK_ITER_FOR(it) {
        double acc = 0.0;
        for (size_t i = 0; i < len; i++) {
          acc += pk_load_f64(PK_PTR(in->data, it, 1) + (ptrdiff_t)i * step[1], id);
          pk_store_f64(PK_PTR(out->data, it, 0) + (ptrdiff_t)i * step[0], od, acc);
        }
      }
      break;
    case PK_CT_I64:
      PK_ITER_FOR(it) {
        int64_t acc = 0;
        for (size_t i = 0; i < len; i++) {
          int64_t v = pk_wrap_to(pk_load_i64(PK_PTR(in->data, it, 1) + (ptrdiff_t)i * step[1], id), od);
          acc = pk_wrap_to(pk_wadd(acc, v), od);
          pk_store_i64(PK_PTR(out->data, it, 0) + (ptrdiff_t)i * step[0], od, acc);
        }
      }
      break;
  }
  return PTERA_OK;
}

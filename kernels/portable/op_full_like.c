/* aten::full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None,
 * Tensor(a!) out): out takes self's shape and is filled with fill_value (converted). */
#include "builtin.h"
#include "portable/util/pk.h"

/* Stores a scalar into one element of dtype dt. */
static void store_scalar(void *p, int dt, const pk_scalar *s) {
  if (s->tag == PTERA_TAG_DOUBLE)
    pk_store_f64(p, dt, s->d);
  else
    pk_store_i64(p, dt, s->i);
}

ptera_status pk_full_like_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::full_like.out";
  ptera_tensor *self, *out;
  pk_scalar v;
  int64_t mf;
  bool has_mf;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "fill_value", &v));
  PK_TRY(pk_get_opt_memory_format(ctx, op, args, 2, "memory_format", &mf, &has_mf));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  size_t es = ptera_dtype_size(out->dtype);
  if (out->numel == 0) return PTERA_OK;
  char *d = (char *)out->data;
  store_scalar(d, out->dtype, &v);
  for (size_t i = 1; i < out->numel; i++) memcpy(d + i * es, d, es);
  return PTERA_OK;
}

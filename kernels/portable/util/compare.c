#include "portable/util/compare.h"
#include "portable/util/elementwise.h"

#define PK_CMP_APPLY(cmp, a, b)                                          \
  ((cmp) == PK_CMP_EQ   ? (a) == (b)                                     \
   : (cmp) == PK_CMP_NE ? (a) != (b)                                     \
   : (cmp) == PK_CMP_LT ? (a) < (b)                                      \
   : (cmp) == PK_CMP_LE ? (a) <= (b)                                     \
   : (cmp) == PK_CMP_GT ? (a) > (b)                                      \
                        : (a) >= (b))

/* b_tensor NULL: compare against the scalar s. */
static void compare_loop(const ptera_tensor *a, const ptera_tensor *b, const pk_scalar *s,
                         ptera_tensor *out, int common, pk_cmp cmp) {
  pk_iter it;
  const ptera_tensor *ins[2] = {a, b ? b : a};
  pk_iter_init(&it, out, ins, 2);
  int ad = a->dtype, bd = b ? b->dtype : 0, od = out->dtype;
  /* One loop per compute type T; sv is the scalar operand in T. */
#define PK_CMP_LOOP(T, load, sv_value)                                          \
  {                                                                             \
    T sv = s ? (sv_value) : (T)0;                                               \
    PK_ITER_FOR(it) {                                                           \
      T x = load(PK_PTR(a->data, it, 1), ad);                                   \
      T y = b ? load(PK_PTR(b->data, it, 2), bd) : sv;                          \
      pk_store_i64(PK_PTR(out->data, it, 0), od, PK_CMP_APPLY(cmp, x, y));      \
    }                                                                           \
    break;                                                                      \
  }
  switch (pk_compute_type(common)) {
    case PK_CT_F32: PK_CMP_LOOP(float, pk_load_f32, (float)pk_scalar_f64(s))
    case PK_CT_F64: PK_CMP_LOOP(double, pk_load_f64, pk_scalar_f64(s))
    case PK_CT_I64: PK_CMP_LOOP(int64_t, pk_load_i64, pk_wrap_to(pk_scalar_i64(s), common))
  }
#undef PK_CMP_LOOP
}

ptera_status pk_compare_tensor_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t nargs, pk_cmp cmp) {
  ptera_tensor *a, *b, *out;
  int common;
  PK_TRY(pk_get_binary_tensors(ctx, op, args, nargs, &a, &b, &out));
  PK_TRY(pk_promote_pair(ctx, op, a, b, &common));
  const ptera_tensor *ts[2] = {a, b};
  const char *names[2] = {"self", "other"};
  PK_TRY(pk_resize_broadcast(ctx, op, ts, names, 2, out));
  compare_loop(a, b, NULL, out, common, cmp);
  return PTERA_OK;
}

ptera_status pk_compare_scalar_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t nargs, pk_cmp cmp) {
  ptera_tensor *a, *out;
  pk_scalar s;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, "other", &s));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_real_or_bool(ctx, op, "self", a));
  PK_TRY(pk_check_real_or_bool(ctx, op, "out", out));
  PK_TRY(pk_promote_with_scalar(ctx, op, a, &s, &common));
  PK_TRY(pk_resize_like(ctx, op, "out", out, a));
  compare_loop(a, NULL, &s, out, common, cmp);
  return PTERA_OK;
}

#include "portable/util/binop.h"

#include <string.h>

#include "cpu/vmath.h"
#include "portable/util/fast_f32.h"

const ptera_tensor *pk_scalar_tensor_init(pk_scalar_tensor *st, const pk_scalar *s) {
  memset(st, 0, sizeof *st);
  st->t.numel = 1;
  st->t.dim = 0;
  st->t.capacity = sizeof st->v;
  st->t.data = &st->v;
  if (s->tag == PTERA_TAG_DOUBLE) {
    st->t.dtype = PTERA_DTYPE_DOUBLE;
    st->v.d = s->d;
  } else if (s->tag == PTERA_TAG_INT) {
    st->t.dtype = PTERA_DTYPE_LONG;
    st->v.i = s->i;
  } else {
    st->t.dtype = PTERA_DTYPE_BOOL;
    st->v.b = s->i != 0;
  }
  return &st->t;
}

ptera_status pk_binop_run(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                          const ptera_tensor *b, ptera_tensor *out, int common,
                          const pk_scalar *alpha, const pk_binop *fn, const char *ierr) {
  pk_scalar one = {PTERA_TAG_INT, 1, 1.0};
  if (!alpha) alpha = &one;
  if (fn->fast && (float)pk_scalar_f64(alpha) == 1.0f &&
      pk_fast_binary_f32(ctx, fn->fast - 1, a, b, out, common))
    return PTERA_OK;
  pk_iter it;
  const ptera_tensor *ins[2] = {a, b};
  pk_iter_init(&it, out, ins, 2);
  int ad = a->dtype, bd = b->dtype, od = out->dtype;
  switch (pk_compute_type(common)) {
    case PK_CT_F32: {
      float al = (float)pk_scalar_f64(alpha);
      PK_ITER_FOR(it) {
        float x = pk_load_f32(PK_PTR(a->data, it, 1), ad), y = pk_load_f32(PK_PTR(b->data, it, 2), bd);
        pk_store_f32(PK_PTR(out->data, it, 0), od, fn->f32(x, y, al));
      }
      break;
    }
    case PK_CT_F64: {
      double al = pk_scalar_f64(alpha);
      PK_ITER_FOR(it) {
        double x = pk_load_f64(PK_PTR(a->data, it, 1), ad), y = pk_load_f64(PK_PTR(b->data, it, 2), bd);
        pk_store_f64(PK_PTR(out->data, it, 0), od, fn->f64(x, y, al));
      }
      break;
    }
    case PK_CT_I64: {
      int64_t al = pk_scalar_i64(alpha);
      PK_ITER_FOR(it) {
        int64_t x = pk_wrap_to(pk_load_i64(PK_PTR(a->data, it, 1), ad), common);
        int64_t y = pk_wrap_to(pk_load_i64(PK_PTR(b->data, it, 2), bd), common);
        int64_t r;
        if (!fn->i64(x, y, al, &r))
          return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: %s", op, ierr);
        pk_store_i64(PK_PTR(out->data, it, 0), od, pk_wrap_to(r, common));
      }
      break;
    }
  }
  return PTERA_OK;
}

ptera_status pk_binop_no_bool(ptera_kernel_ctx *ctx, const char *op, int common) {
  if (common == PTERA_DTYPE_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: not supported when 'self' and 'other' are both Bool", op);
  return PTERA_OK;
}

float pk_floordiv_f32(float a, float b) {
  if (b == 0.0f) return a / b;
  float mod = fmodf(a, b);
  float div = (a - mod) / b;
  if (mod != 0.0f && (b < 0.0f) != (mod < 0.0f)) div -= 1.0f;
  if (div == 0.0f) return copysignf(0.0f, a / b);
  float fl = floorf(div);
  if (div - fl > 0.5f) fl += 1.0f;
  return fl;
}

double pk_floordiv_f64(double a, double b) {
  if (b == 0.0) return a / b;
  double mod = fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) div -= 1.0;
  if (div == 0.0) return copysign(0.0, a / b);
  double fl = floor(div);
  if (div - fl > 0.5) fl += 1.0;
  return fl;
}

int64_t pk_truncdiv_i64(int64_t a, int64_t b) {
  if (b == -1) return pk_wsub(0, a); /* INT64_MIN / -1 wraps */
  return a / b;
}

int64_t pk_cmod_i64(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }

int64_t pk_floordiv_i64(int64_t a, int64_t b) {
  int64_t q = pk_truncdiv_i64(a, b);
  if (pk_cmod_i64(a, b) != 0 && ((a < 0) != (b < 0))) q -= 1;
  return q;
}

int64_t pk_pymod_i64(int64_t a, int64_t b) {
  int64_t r = pk_cmod_i64(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

ptera_status pk_get_rounding_mode(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                  size_t i, int *mode) {
  const ptera_value *v = args[i];
  if (v && v->tag == PTERA_TAG_NONE) {
    *mode = 0;
    return PTERA_OK;
  }
  if (!v || v->tag != PTERA_TAG_STRING)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: 'rounding_mode' must be a String or None, got %s",
                             op, v ? ptera_tag_name(v->tag) : "nothing");
  size_t n = v->u.str.len;
  const char *s = v->u.str.ptr;
  if (s && n == 5 && memcmp(s, "trunc", 5) == 0) {
    *mode = 1;
  } else if (s && n == 5 && memcmp(s, "floor", 5) == 0) {
    *mode = 2;
  } else {
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'rounding_mode' must be None, \"trunc\" or \"floor\", got \"%.*s\"",
                             op, (int)(n > 32 ? 32 : n), s ? s : "");
  }
  return PTERA_OK;
}

static ptera_status finish_common(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *out,
                                  unsigned flags, int *common) {
  if ((flags & PK_BINOP_NO_BOOL) && *common == PTERA_DTYPE_BOOL)
    return pk_binop_no_bool(ctx, op, *common);
  if ((flags & PK_BINOP_FLOAT) && !pk_is_float(*common)) {
    PK_TRY(pk_check_float(ctx, op, "out", out));
    *common = PTERA_DTYPE_FLOAT;
  }
  return PTERA_OK;
}

ptera_status pk_binop_tt_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                size_t nargs, const char *bname, const pk_binop *fn,
                                unsigned flags, const char *ierr) {
  ptera_tensor *a, *b, *out;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, bname, &b));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_binary_prepare(ctx, op, a, b, out, &common));
  PK_TRY(finish_common(ctx, op, out, flags, &common));
  return pk_binop_run(ctx, op, a, b, out, common, NULL, fn, ierr);
}

ptera_status pk_binop_ts_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                size_t nargs, const char *bname, const pk_binop *fn,
                                unsigned flags, const char *ierr) {
  ptera_tensor *a, *out;
  pk_scalar s;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_get_scalar(ctx, op, args, 1, bname, &s));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_scalar_prepare(ctx, op, a, &s, out, &common));
  PK_TRY(finish_common(ctx, op, out, flags, &common));
  pk_scalar_tensor st;
  return pk_binop_run(ctx, op, a, pk_scalar_tensor_init(&st, &s), out, common, NULL, fn, ierr);
}

ptera_status pk_binop_alpha_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t nargs, bool scalar_other, const pk_binop *fn,
                                   unsigned flags) {
  ptera_tensor *a, *b = NULL, *out;
  pk_scalar s, alpha;
  int common;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &a));
  if (scalar_other) PK_TRY(pk_get_scalar(ctx, op, args, 1, "other", &s));
  else PK_TRY(pk_get_tensor(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_get_scalar(ctx, op, args, 2, "alpha", &alpha));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  bool other_bool = b ? b->dtype == PTERA_DTYPE_BOOL : s.tag == PTERA_TAG_BOOL;
  if ((flags & PK_BINOP_NO_BOOL_ARGS) && (a->dtype == PTERA_DTYPE_BOOL || other_bool))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: subtraction with a Bool 'self' or 'other' is not supported "
                             "('self' is %s); use logical_xor instead",
                             op, ptera_dtype_name(a->dtype));
  if (b) PK_TRY(pk_binary_prepare(ctx, op, a, b, out, &common));
  else PK_TRY(pk_scalar_prepare(ctx, op, a, &s, out, &common));
  PK_TRY(pk_check_alpha(ctx, op, &alpha, common));
  pk_scalar_tensor st;
  const ptera_tensor *other = b ? b : pk_scalar_tensor_init(&st, &s);
  if (flags & PK_BINOP_SWAP) return pk_binop_run(ctx, op, other, a, out, common, &alpha, fn, "");
  return pk_binop_run(ctx, op, a, other, out, common, &alpha, fn, "");
}

static float add_f32(float a, float b, float al) {
  float y = al * b; /* separate statement: no FMA */
  return a + y;
}
static double add_f64(double a, double b, double al) {
  double y = al * b;
  return a + y;
}
static bool add_i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  *r = pk_wadd(a, pk_wmul(al, b));
  return true;
}
const pk_binop pk_binop_add = {add_f32, add_f64, add_i64, 1 + PK_VB_ADD};

static float sub_f32(float a, float b, float al) {
  float y = al * b; /* separate statement: no FMA */
  return a - y;
}
static double sub_f64(double a, double b, double al) {
  double y = al * b;
  return a - y;
}
static bool sub_i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  *r = pk_wsub(a, pk_wmul(al, b));
  return true;
}
const pk_binop pk_binop_sub = {sub_f32, sub_f64, sub_i64, 1 + PK_VB_SUB};

static float mul_f32(float a, float b, float al) {
  (void)al;
  return a * b;
}
static double mul_f64(double a, double b, double al) {
  (void)al;
  return a * b;
}
static bool mul_i64(int64_t a, int64_t b, int64_t al, int64_t *r) {
  (void)al;
  *r = pk_wmul(a, b);
  return true;
}
const pk_binop pk_binop_mul = {mul_f32, mul_f64, mul_i64, 1 + PK_VB_MUL};

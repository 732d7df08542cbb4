#include "portable/util/softmax.h"

#include "portable/util/fast_f32.h"

ptera_status pk_softmax_common(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               size_t nargs, bool log_) {
  ptera_tensor *in, *out;
  int64_t dim;
  bool h2f;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int(ctx, op, args, 1, "dim", &dim));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "half_to_float", &h2f));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  if (h2f)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'half_to_float' must be false", op);
  PK_TRY(pk_check_float(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  size_t d;
  PK_TRY(pk_norm_dim(ctx, op, "dim", dim, in->dim, &d));
  PK_TRY(pk_resize_like(ctx, op, "out", out, in));
  if (in->numel == 0) return PTERA_OK;
  size_t len = in->dim ? (size_t)in->sizes[d] : 1;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(in->dtype);
  ptrdiff_t sin = in->dim ? in->strides[d] * es : 0, sout = out->dim ? out->strides[d] * es : 0;
  int32_t sizes[PTERA_MAX_DIM];
  int64_t strides[2][PTERA_MAX_DIM];
  size_t esz[2] = {(size_t)es, (size_t)es};
  for (size_t i = 0; i < in->dim; i++) {
    sizes[i] = i == d ? 1 : in->sizes[i];
    strides[0][i] = out->strides[i];
    strides[1][i] = in->strides[i];
  }
  pk_iter it;
  pk_iter_init_raw(&it, in->dim, sizes, NULL, 2, (const int64_t(*)[PTERA_MAX_DIM])strides, esz);
  int dt = in->dtype;
  if (dt == PTERA_DTYPE_FLOAT && (len == 1 || (sin == es && sout == es)) &&
      pk_fast_softmax_rows(ctx, &it, len, in, out, log_))
    return PTERA_OK;
  PK_ITER_FOR(it) {
    const char *ip = PK_PTR(in->data, it, 1);
    char *op_ = PK_PTR(out->data, it, 0);
    double mx = -INFINITY;
    for (size_t k = 0; k < len; k++) {
      double v = pk_load_f64(ip + (ptrdiff_t)k * sin, dt);
      if (v > mx || v != v) mx = v;
    }
    double sum = 0.0;
    for (size_t k = 0; k < len; k++) sum += exp(pk_load_f64(ip + (ptrdiff_t)k * sin, dt) - mx);
    double ls = log(sum);
    for (size_t k = 0; k < len; k++) {
      double z = pk_load_f64(ip + (ptrdiff_t)k * sin, dt) - mx;
      pk_store_f64(op_ + (ptrdiff_t)k * sout, dt, log_ ? z - ls : exp(z) / sum);
    }
  }
  return PTERA_OK;
}

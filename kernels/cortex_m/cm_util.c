#include "cortex_m/cm_util.h"

#include "cortex_m/fixed_point.h"

#define BAD PTERA_INVALID_ARGUMENT

ptera_status pk_cm_get_i8(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                          const char *name, ptera_tensor **out) {
  PK_TRY(pk_get_tensor(ctx, op, args, i, name, out));
  return pk_check_dtype(ctx, op, name, *out, PTERA_DTYPE_CHAR);
}

ptera_status pk_cm_check_nhwc(ptera_kernel_ctx *ctx, const char *op, const char *name,
                              const ptera_tensor *t) {
  if (t->dim != 4)
    return ptera_kernel_fail(ctx, BAD, "%s: '%s' must be 4-D [N, C, H, W], got rank %u", op, name,
                             (unsigned)t->dim);
  static const uint8_t cl[4] = {0, 2, 3, 1};
  if (memcmp(t->dim_order, cl, 4) == 0) return PTERA_OK;
  bool either = t->sizes[1] == 1 || (t->sizes[2] == 1 && t->sizes[3] == 1);
  if (either && ptera_tensor_is_contiguous(t)) return PTERA_OK;
  return ptera_kernel_fail(ctx, BAD, "%s: '%s' must be channels-last (dim order 0, 2, 3, 1)", op,
                           name);
}

ptera_status pk_cm_check_contiguous(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                    const ptera_tensor *t) {
  if (ptera_tensor_is_contiguous(t)) return PTERA_OK;
  return ptera_kernel_fail(ctx, BAD, "%s: '%s' must be contiguous (dim order 0..%d)", op, name,
                           t->dim ? t->dim - 1 : 0);
}

static ptera_status check_range(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                int64_t v, int64_t lo, int64_t hi) {
  if (v >= lo && v <= hi) return PTERA_OK;
  return ptera_kernel_fail(ctx, BAD, "%s: '%s' is %lld, outside [%lld, %lld]", op, name,
                           (long long)v, (long long)lo, (long long)hi);
}

ptera_status pk_cm_get_int(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                           const char *name, int64_t lo, int64_t hi, int32_t *out) {
  int64_t v;
  PK_TRY(pk_get_int(ctx, op, args, i, name, &v));
  PK_TRY(check_range(ctx, op, name, v, lo, hi));
  *out = (int32_t)v;
  return PTERA_OK;
}

ptera_status pk_cm_get_ints(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                            const char *name, size_t n, int64_t lo, int64_t hi, int32_t *out) {
  int64_t buf[PTERA_MAX_DIM];
  size_t len;
  PK_TRY(pk_get_int_list(ctx, op, args, i, name, buf, PTERA_MAX_DIM, &len));
  if (len != n)
    return ptera_kernel_fail(ctx, BAD, "%s: '%s' must have %zu entries, got %zu", op, name, n, len);
  for (size_t k = 0; k < n; k++) {
    PK_TRY(check_range(ctx, op, name, buf[k], lo, hi));
    out[k] = (int32_t)buf[k];
  }
  return PTERA_OK;
}

ptera_status pk_cm_get_requant(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               size_t i_mult, size_t i_shift, int32_t *mult, int32_t *shift) {
  PK_TRY(pk_cm_get_int(ctx, op, args, i_mult, "multiplier", INT32_MIN, INT32_MAX, mult));
  return pk_cm_get_int(ctx, op, args, i_shift, "shift", -31, 31, shift);
}

ptera_status pk_cm_get_clamp(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                             size_t i_min, size_t i_max, int32_t *lo, int32_t *hi) {
  PK_TRY(pk_cm_get_int(ctx, op, args, i_min, "activation_min", INT8_MIN, INT8_MAX, lo));
  PK_TRY(pk_cm_get_int(ctx, op, args, i_max, "activation_max", INT8_MIN, INT8_MAX, hi));
  if (*lo > *hi)
    return ptera_kernel_fail(ctx, BAD, "%s: activation_min %d > activation_max %d", op, (int)*lo,
                             (int)*hi);
  return PTERA_OK;
}

ptera_status pk_cm_get_i32_vec(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                               size_t i, const char *name, size_t n, bool optional,
                               const int32_t **out) {
  ptera_tensor *t;
  if (optional) {
    PK_TRY(pk_get_opt_tensor(ctx, op, args, i, name, &t));
    *out = NULL;
    if (!t) return PTERA_OK;
  } else {
    PK_TRY(pk_get_tensor(ctx, op, args, i, name, &t));
  }
  PK_TRY(pk_check_dtype(ctx, op, name, t, PTERA_DTYPE_INT));
  if (t->numel != n)
    return ptera_kernel_fail(ctx, BAD, "%s: '%s' must have %zu elements, got %zu", op, name, n,
                             t->numel);
  *out = t->data;
  return PTERA_OK;
}

ptera_status pk_cm_check_shifts(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                const int32_t *shift, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (shift[k] < -31 || shift[k] > 31)
      return ptera_kernel_fail(ctx, BAD, "%s: '%s'[%zu] is %d, outside [-31, 31]", op, name, k,
                               (int)shift[k]);
  return PTERA_OK;
}

ptera_status pk_cm_get_channel_params(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                      size_t i_bias, size_t i_mult, size_t oc, const int32_t **bias,
                                      const int32_t **mult, const int32_t **shift) {
  PK_TRY(pk_cm_get_i32_vec(ctx, op, args, i_bias, "bias", oc, true, bias));
  PK_TRY(pk_cm_get_i32_vec(ctx, op, args, i_mult, "requantize_multipliers", oc, false, mult));
  PK_TRY(pk_cm_get_i32_vec(ctx, op, args, i_mult + 1, "requantize_shifts", oc, false, shift));
  return pk_cm_check_shifts(ctx, op, "requantize_shifts", *shift, oc);
}

/* The batch, channel and kernel fields of g from in and out. */
static ptera_status geom_start(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                               const ptera_tensor *out, pk_conv2d_geom *g) {
  PK_TRY(pk_cm_check_nhwc(ctx, op, "input", in));
  PK_TRY(pk_cm_check_nhwc(ctx, op, "out", out));
  if (out->sizes[0] != in->sizes[0])
    return ptera_kernel_fail(ctx, BAD, "%s: 'out' batch %d differs from the input's %d", op,
                             (int)out->sizes[0], (int)in->sizes[0]);
  *g = (pk_conv2d_geom){.n = in->sizes[0], .c_in = in->sizes[1], .h = in->sizes[2], .w = in->sizes[3],
                        .c_out = out->sizes[1], .layout = PK_CONV_NHWC};
  return PTERA_OK;
}

/* pk_conv2d_geom_init, then out's extents against the computed ones. */
static ptera_status geom_finish(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *out,
                                pk_conv2d_geom *g) {
  char msg[128];
  if (pk_conv2d_geom_init(g, msg, sizeof msg) != PTERA_OK)
    return ptera_kernel_fail(ctx, BAD, "%s: %s", op, msg);
  if (g->oh != out->sizes[2] || g->ow != out->sizes[3])
    return ptera_kernel_fail(ctx, BAD,
                             "%s: 'out' is %dx%d but input %lldx%lld, kernel %lldx%lld, stride, "
                             "padding and dilation give %lldx%lld",
                             op, (int)out->sizes[2], (int)out->sizes[3], (long long)g->h,
                             (long long)g->w, (long long)g->kh, (long long)g->kw,
                             (long long)g->oh, (long long)g->ow);
  return PTERA_OK;
}

ptera_status pk_cm_conv_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                             const ptera_tensor *out, int64_t groups, int32_t kh, int32_t kw,
                             const int32_t stride[2], const int32_t pad[2], const int32_t dil[2],
                             const int32_t *out_pad, pk_conv2d_geom *g) {
  PK_TRY(geom_start(ctx, op, in, out, g));
  g->groups = groups;
  g->kh = kh;
  g->kw = kw;
  g->transposed = out_pad != NULL;
  for (int d = 0; d < 2; d++) {
    g->stride[d] = stride[d];
    g->pad[d] = pad[d];
    g->dil[d] = dil[d];
    if (out_pad && out_pad[d] >= stride[d] && out_pad[d] >= dil[d])
      return ptera_kernel_fail(ctx, BAD, "%s: output_padding %d must be below stride or dilation",
                               op, (int)out_pad[d]);
    g->out_pad[d] = out_pad ? out_pad[d] : 0;
  }
  return geom_finish(ctx, op, out, g);
}

ptera_status pk_cm_pool_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *in,
                             const ptera_tensor *out, const int32_t kernel[2],
                             const int32_t stride[2], const int32_t pad[2], bool ceil_mode,
                             pk_conv2d_geom *g) {
  PK_TRY(geom_start(ctx, op, in, out, g));
  if (g->c_out != g->c_in)
    return ptera_kernel_fail(ctx, BAD, "%s: 'out' must have the channels of 'input'", op);
  g->groups = 1;
  g->kh = kernel[0];
  g->kw = kernel[1];
  g->ceil_mode = ceil_mode;
  for (int d = 0; d < 2; d++) {
    g->stride[d] = stride[d];
    g->pad[d] = pad[d];
    g->dil[d] = 1;
  }
  return geom_finish(ctx, op, out, g);
}

ptera_status pk_cm_pool_window(ptera_kernel_ctx *ctx, const char *op, const pk_conv2d_geom *g,
                               int64_t oy, int64_t ox, int64_t w[4]) {
  int64_t y0 = oy * g->stride[0] - g->pad[0], x0 = ox * g->stride[1] - g->pad[1];
  w[0] = y0 < 0 ? 0 : y0;
  w[1] = y0 + g->kh < g->h ? y0 + g->kh : g->h;
  w[2] = x0 < 0 ? 0 : x0;
  w[3] = x0 + g->kw < g->w ? x0 + g->kw : g->w;
  if (w[1] > w[0] && w[3] > w[2]) return PTERA_OK;
  return ptera_kernel_fail(ctx, BAD, "%s: the window of output (%d, %d) lies in the padding", op, (int)oy,
                           (int)ox);
}

int8_t pk_cm_requant_out(int32_t acc, int32_t mult, int32_t shift, int32_t offset, int32_t lo,
                         int32_t hi) {
  return (int8_t)pk_fx_clamp(pk_fx_add(pk_fx_requant(acc, mult, shift), offset), lo, hi);
}

static bool same_sizes(const ptera_tensor *x, const ptera_tensor *y) {
  return x->dim == y->dim && memcmp(x->sizes, y->sizes, x->dim * sizeof x->sizes[0]) == 0;
}

ptera_status pk_cm_binop_init(ptera_kernel_ctx *ctx, const char *op, const ptera_tensor *a,
                              const ptera_tensor *b, const ptera_tensor *out, pk_cm_binop *bo) {
  *bo = (pk_cm_binop){.a = a->data, .b = b->data, .out = out->data, .n = out->numel};
  bo->a_mod = bo->b_mod = bo->n ? bo->n : 1;
  if (same_sizes(a, b) && same_sizes(a, out)) {
    if (!pk_same_layout(a, out) || !pk_same_layout(b, out))
      return ptera_kernel_fail(ctx, BAD, "%s: 'self', 'other' and 'out' must share one dim order", op);
    return PTERA_OK;
  }
  bool chan = a->dim == 4 && b->dim == 4 && a->sizes[1] == b->sizes[1];
  size_t c = chan ? (size_t)a->sizes[1] : 0;
  const ptera_tensor *big = chan && b->numel == c ? a : chan && a->numel == c ? b : NULL;
  if (!big || !same_sizes(big, out) || !pk_same_layout(big, out)) {
    char sa[96], sb[96], so[96];
    return ptera_kernel_fail(ctx, BAD,
                             "%s: 'self' %s, 'other' %s and 'out' %s must have equal sizes, or be "
                             "4-D with one operand holding one value per channel",
                             op, pk_fmt_shape(sa, sizeof sa, a->sizes, a->dim),
                             pk_fmt_shape(sb, sizeof sb, b->sizes, b->dim),
                             pk_fmt_shape(so, sizeof so, out->sizes, out->dim));
  }
  bo->c = c;
  if (big == a)
    bo->b_mod = c;
  else
    bo->a_mod = c;
  return PTERA_OK;
}

ptera_status pk_cm_extreme(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                           size_t nargs, bool is_max) {
  ptera_tensor *a, *b, *out;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 0, "self", &a));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 1, "other", &b));
  PK_TRY(pk_cm_get_i8(ctx, op, args, 2, "out", &out));
  const ptera_tensor *ins[2] = {a, b};
  static const char *const names[2] = {"self", "other"};
  int32_t sizes[PTERA_MAX_DIM];
  size_t dim;
  PK_TRY(pk_broadcast_shape(ctx, op, ins, names, 2, sizes, &dim));
  if (dim > 4)
    return ptera_kernel_fail(ctx, BAD, "%s: inputs of rank %zu; at most 4 are supported", op, dim);
  PK_TRY(pk_resize(ctx, op, "out", out, dim, sizes));
  PK_TRY(pk_cm_check_contiguous(ctx, op, "self", a));
  PK_TRY(pk_cm_check_contiguous(ctx, op, "other", b));
  PK_TRY(pk_cm_check_contiguous(ctx, op, "out", out));
  /* Right-aligned 4-D sizes and element strides (0 along broadcast dims). */
  size_t osz[4], sa[4], sb[4];
  for (int d = 3, ka = a->dim - 1, kb = b->dim - 1, ko = (int)dim - 1; d >= 0; d--, ka--, kb--, ko--) {
    osz[d] = ko >= 0 ? (size_t)sizes[ko] : 1;
    sa[d] = ka >= 0 && a->sizes[ka] != 1 ? (size_t)a->strides[ka] : 0;
    sb[d] = kb >= 0 && b->sizes[kb] != 1 ? (size_t)b->strides[kb] : 0;
  }
  const int8_t *x = a->data, *y = b->data;
  int8_t *o = out->data;
  for (size_t i0 = 0; i0 < osz[0]; i0++)
    for (size_t i1 = 0; i1 < osz[1]; i1++)
      for (size_t i2 = 0; i2 < osz[2]; i2++)
        for (size_t i3 = 0; i3 < osz[3]; i3++) {
          int8_t u = x[i0 * sa[0] + i1 * sa[1] + i2 * sa[2] + i3 * sa[3]];
          int8_t v = y[i0 * sb[0] + i1 * sb[1] + i2 * sb[2] + i3 * sb[3]];
          *o++ = (is_max ? u > v : u < v) ? u : v;
        }
  return PTERA_OK;
}

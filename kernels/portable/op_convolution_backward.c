/* aten::convolution_backward.out(Tensor grad_output, Tensor input, Tensor weight,
 * SymInt[]? bias_sizes, int[] stride, int[] padding, int[] dilation, bool transposed,
 * int[] output_padding, int groups, bool[3] output_mask, *, Tensor(a!) out0,
 * Tensor(b!) out1, Tensor(c!) out2): gradients of a non-transposed 1-d or 2-d
 * convolution with respect to input (out0), weight (out1) and bias (out2), each
 * computed only when its output_mask entry is set (the others are left alone).
 * As ExecuTorch's portable kernel: float dtypes only, transposed convolution is
 * not supported, and the gradients accumulate in place in the output dtype in the
 * order batch, group, output row, output column, output channel, input channel,
 * kernel row, kernel column. */
#include "builtin.h"
#include "cpu/conv_geom.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"
#include "portable/util/pool_util.h"

/* Byte offsets of [n, c, h, w] for a 3-d (1-d conv, h = 0) or 4-d tensor. */
static ptrdiff_t cb_off(const ptera_tensor *t, int64_t a, int64_t b, int64_t h, int64_t w) {
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(t->dtype);
  if (t->dim == 3) return (ptrdiff_t)(a * t->strides[0] + b * t->strides[1] + w * t->strides[2]) * es;
  return (ptrdiff_t)(a * t->strides[0] + b * t->strides[1] + h * t->strides[2] + w * t->strides[3]) * es;
}

static void cb_zero(ptera_tensor *t) {
  for (size_t i = 0; i < t->numel; i++) pk_store_f64((char *)t->data + pk_flat_off(t, i), t->dtype, 0.0);
}

/* *dst += a * b in dt (float arithmetic for float/half/bf16, double for double). */
static void cb_acc(char *dst, const char *a, const char *b, int dt) {
  if (dt == PTERA_DTYPE_DOUBLE)
    *(double *)dst += *(const double *)a * *(const double *)b;
  else
    pk_store_f32(dst, dt, pk_load_f32(dst, dt) + pk_load_f32(a, dt) * pk_load_f32(b, dt));
}

static void cb_run(const pk_conv2d_geom *g, const ptera_tensor *go, const ptera_tensor *in, const ptera_tensor *w,
                   ptera_tensor *gi, ptera_tensor *gw, ptera_tensor *gb) {
  int dt = in->dtype;
  int64_t cin_g = g->c_in / g->groups, cout_g = g->c_out / g->groups;
  const char *GO = go->data, *I = in->data, *W = w->data;
  ptrdiff_t gbs = gb ? (ptrdiff_t)gb->strides[0] * (ptrdiff_t)ptera_dtype_size(dt) : 0;
  for (int64_t b = 0; b < g->n; b++)
    for (int64_t grp = 0; grp < g->groups; grp++)
      for (int64_t y = 0; y < g->oh; y++)
        for (int64_t x = 0; x < g->ow; x++)
          for (int64_t c = 0; c < cout_g; c++) {
            int64_t oc = grp * cout_g + c;
            const char *gop = GO + cb_off(go, b, oc, y, x);
            if (gb) {
              char *bp = (char *)gb->data + oc * gbs;
              if (dt == PTERA_DTYPE_DOUBLE)
                *(double *)bp += *(const double *)gop;
              else
                pk_store_f32(bp, dt, pk_load_f32(bp, dt) + pk_load_f32(gop, dt));
            }
            for (int64_t k = 0; k < cin_g; k++) {
              int64_t ic = grp * cin_g + k;
              for (int64_t ky = 0; ky < g->kh; ky++) {
                int64_t iy = y * g->stride[0] - g->pad[0] + ky * g->dil[0];
                if (iy < 0 || iy >= g->h) continue;
                for (int64_t kx = 0; kx < g->kw; kx++) {
                  int64_t ix = x * g->stride[1] - g->pad[1] + kx * g->dil[1];
                  if (ix < 0 || ix >= g->w) continue;
                  if (gi) cb_acc((char *)gi->data + cb_off(gi, b, ic, iy, ix), gop, W + cb_off(w, oc, k, ky, kx), dt);
                  if (gw) cb_acc((char *)gw->data + cb_off(gw, oc, k, ky, kx), gop, I + cb_off(in, b, ic, iy, ix), dt);
                }
              }
            }
          }
}

static ptera_status cb_out(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                           const char *name, bool wanted, const ptera_tensor *like, ptera_tensor **out) {
  *out = NULL;
  if (!wanted) return PTERA_OK;
  PK_TRY(pk_get_tensor(ctx, op, args, i, name, out));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", like, name, *out));
  return PTERA_OK;
}

ptera_status pk_convolution_backward_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::convolution_backward.out";
  ptera_tensor *go, *in, *w, *gi, *gw, *gb;
  bool transposed, has_bias_sizes;
  int64_t groups, bsz[1] = {0};
  size_t nb = 0;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 15));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "grad_output", &go));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "weight", &w));
  PK_TRY(pk_get_opt_int_list(ctx, op, args, 3, "bias_sizes", bsz, 1, &nb, &has_bias_sizes));
  PK_TRY(pk_get_bool(ctx, op, args, 7, "transposed", &transposed));
  PK_TRY(pk_get_int(ctx, op, args, 9, "groups", &groups));
  const ptera_value *mv = args[10];
  if (!mv || mv->tag != PTERA_TAG_LIST_BOOL)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: 'output_mask' must be a bool list, got %s", op,
                             mv ? ptera_tag_name(mv->tag) : "a missing value");
  if (mv->u.bools.len != 3 || !mv->u.bools.items)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'output_mask' must have 3 items, has %zu", op,
                             mv->u.bools.len);
  bool mask[3] = {mv->u.bools.items[0] != 0, mv->u.bools.items[1] != 0, mv->u.bools.items[2] != 0};
  PK_TRY(pk_check_float(ctx, op, "input", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "weight", w));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "grad_output", go));
  PK_TRY(cb_out(ctx, op, args, 11, "out0", mask[0], in, &gi));
  PK_TRY(cb_out(ctx, op, args, 12, "out1", mask[1], in, &gw));
  PK_TRY(cb_out(ctx, op, args, 13, "out2", mask[2], in, &gb));
  if (transposed)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'transposed' convolution backward is not supported",
                             op);
  if ((in->dim != 3 && in->dim != 4) || w->dim != in->dim || go->dim != in->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input', 'weight' and 'grad_output' must all be 3-D or 4-D (ranks %u, %u, %u)",
                             op, (unsigned)in->dim, (unsigned)w->dim, (unsigned)go->dim);
  bool one_d = in->dim == 3;
  size_t nsp = one_d ? 1 : 2;
  int64_t st[2], pd[2], dl[2];
  PK_TRY(pk_get_spatial(ctx, op, args, 4, "stride", nsp, 1, false, NULL, st));
  PK_TRY(pk_get_spatial(ctx, op, args, 5, "padding", nsp, 0, false, NULL, pd));
  PK_TRY(pk_get_spatial(ctx, op, args, 6, "dilation", nsp, 1, false, NULL, dl));
  pk_conv2d_geom g = {0};
  g.n = in->sizes[0];
  g.c_in = in->sizes[1];
  g.c_out = w->sizes[0];
  g.groups = groups;
  if (groups < 1 || g.c_in % groups != 0 || g.c_out % groups != 0 || (int64_t)w->sizes[1] * groups != g.c_in)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weight' of %d x %d channels and 'groups' = %lld do not fit %lld input channels",
                             op, (int)w->sizes[0], (int)w->sizes[1], (long long)groups, (long long)g.c_in);
  g.h = one_d ? 1 : in->sizes[2];
  g.w = in->sizes[nsp + 1];
  g.kh = one_d ? 1 : w->sizes[2];
  g.kw = w->sizes[nsp + 1];
  for (size_t i = 0; i < 2; i++) {
    bool fixed = one_d && i == 0; /* the unit height of a 1-d convolution */
    g.stride[i] = fixed ? 1 : st[i + nsp - 2];
    g.pad[i] = fixed ? 0 : pd[i + nsp - 2];
    g.dil[i] = fixed ? 1 : dl[i + nsp - 2];
  }
  g.layout = PK_CONV_NCHW;
  char why[160];
  if (pk_conv2d_geom_init(&g, why, sizeof why) != PTERA_OK)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: %s", op, why);
  bool ok = go->sizes[0] == g.n && go->sizes[1] == g.c_out && go->sizes[nsp + 1] == g.ow &&
            (one_d || go->sizes[2] == g.oh);
  if (!ok)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'grad_output' must have shape [%lld, %lld, %lld%s%lld]", op, (long long)g.n,
                             (long long)g.c_out, (long long)(one_d ? g.ow : g.oh), one_d ? "" : ", ",
                             one_d ? 0LL : (long long)g.ow);
  if (has_bias_sizes && (nb != 1 || bsz[0] != g.c_out))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'bias_sizes' must be [%lld]", op, (long long)g.c_out);
  if (gi) PK_TRY(pk_resize_like(ctx, op, "out0", gi, in));
  if (gw) PK_TRY(pk_resize_like(ctx, op, "out1", gw, w));
  if (gb) {
    int32_t bs[1] = {(int32_t)g.c_out};
    PK_TRY(pk_resize(ctx, op, "out2", gb, 1, bs));
  }
  if (gi) cb_zero(gi);
  if (gw) cb_zero(gw);
  if (gb) cb_zero(gb);
  if (go->numel == 0) return PTERA_OK;
  cb_run(&g, go, in, w, gi, gw, gb);
  return PTERA_OK;
}

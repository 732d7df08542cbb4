/* aten::convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride,
 * SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding,
 * SymInt groups, *, Tensor(a!) out). 1-d ([N,C,L]) and 2-d ([N,C,H,W]) inputs, any dim
 * order; transposed convolution included. One real dtype throughout.
 *
 * Float32 tensors all contiguous (NCHW) or all channels last (NHWC, 2-d)
 * take the fast path (kernels/cpu/conv2d.h).
 * Prepare (at method load): with a constant weight the filters are packed
 * once into method-owned memory and the run's workspace is declared for the
 * method's threads; with another weight the declaration also holds the
 * filters packed per call. */
#include "builtin.h"
#include "cpu/conv2d.h"
#include "cpu/conv_geom.h"
#include "portable/util/pk.h"
#include "portable/util/pool_util.h"

/* Byte strides [n, c, h, w] per tensor (for 1-d, w is the only spatial dim). */
typedef struct conv_strides {
  ptrdiff_t is[4], ws[4], os[4], bs;
} conv_strides;

static void strides4(const ptera_tensor *t, bool one_d, ptrdiff_t *s) {
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(t->dtype);
  s[0] = t->strides[0] * es;
  s[1] = t->strides[1] * es;
  s[2] = one_d ? 0 : t->strides[2] * es;
  s[3] = t->strides[one_d ? 2 : 3] * es;
}

static double wload(const char *p, int dt) { return pk_load_f64(p, dt); }

static void conv_forward(const pk_conv2d_geom *g, const conv_strides *st, const ptera_tensor *in, const ptera_tensor *w,
                         const ptera_tensor *bias, ptera_tensor *out) {
  int dt = out->dtype;
  pk_ctype ct = pk_compute_type(dt);
  int64_t cin_g = g->c_in / g->groups, cout_g = g->c_out / g->groups;
  const char *I = in->data, *W = w->data, *B = bias ? bias->data : NULL;
  char *O = out->data;
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t oc = 0; oc < g->c_out; oc++) {
      int64_t grp = oc / cout_g;
      for (int64_t y = 0; y < g->oh; y++)
        for (int64_t x = 0; x < g->ow; x++) {
          float accf = 0.0f;
          double accd = 0.0;
          int64_t acci = 0;
          for (int64_t c = 0; c < cin_g; c++) {
            int64_t ic = grp * cin_g + c;
            for (int64_t ky = 0; ky < g->kh; ky++) {
              int64_t iy = y * g->stride[0] - g->pad[0] + ky * g->dil[0];
              if (iy < 0 || iy >= g->h) continue;
              for (int64_t kx = 0; kx < g->kw; kx++) {
                int64_t ix = x * g->stride[1] - g->pad[1] + kx * g->dil[1];
                if (ix < 0 || ix >= g->w) continue;
                const char *ip = I + n * st->is[0] + ic * st->is[1] + iy * st->is[2] + ix * st->is[3];
                const char *wp = W + oc * st->ws[0] + c * st->ws[1] + ky * st->ws[2] + kx * st->ws[3];
                if (ct == PK_CT_F32) {
                  float pr = pk_load_f32(ip, dt) * pk_load_f32(wp, dt);
                  accf += pr;
                } else if (ct == PK_CT_F64) {
                  accd += wload(ip, dt) * wload(wp, dt);
                } else {
                  acci = pk_wadd(acci, pk_wmul(pk_load_i64(ip, dt), pk_load_i64(wp, dt)));
                }
              }
            }
          }
          char *op = O + n * st->os[0] + oc * st->os[1] + y * st->os[2] + x * st->os[3];
          if (ct == PK_CT_F32) {
            if (B) accf += pk_load_f32(B + oc * st->bs, dt);
            pk_store_f32(op, dt, accf);
          } else if (ct == PK_CT_F64) {
            if (B) accd += pk_load_f64(B + oc * st->bs, dt);
            pk_store_f64(op, dt, accd);
          } else {
            if (B) acci = pk_wadd(acci, pk_load_i64(B + oc * st->bs, dt));
            pk_store_i64(op, dt, acci);
          }
        }
    }
}

/* Transposed: scatter each input element through the kernel. */
static void conv_transposed(const pk_conv2d_geom *g, const conv_strides *st, const ptera_tensor *in, const ptera_tensor *w,
                            const ptera_tensor *bias, ptera_tensor *out) {
  int dt = out->dtype;
  int64_t cin_g = g->c_in / g->groups, cout_g = g->c_out / g->groups;
  const char *I = in->data, *W = w->data, *B = bias ? bias->data : NULL;
  char *O = out->data;
  pk_ctype ct = pk_compute_type(dt);
  bool isint = ct == PK_CT_I64;
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t oc = 0; oc < g->c_out; oc++)
      for (int64_t y = 0; y < g->oh; y++)
        for (int64_t x = 0; x < g->ow; x++) {
          char *op = O + n * st->os[0] + oc * st->os[1] + y * st->os[2] + x * st->os[3];
          if (isint)
            pk_store_i64(op, dt, B ? pk_load_i64(B + oc * st->bs, dt) : 0);
          else
            pk_store_f64(op, dt, B ? pk_load_f64(B + oc * st->bs, dt) : 0.0);
        }
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t ic = 0; ic < g->c_in; ic++) {
      int64_t grp = ic / cin_g;
      for (int64_t iy = 0; iy < g->h; iy++)
        for (int64_t ix = 0; ix < g->w; ix++) {
          const char *ip = I + n * st->is[0] + ic * st->is[1] + iy * st->is[2] + ix * st->is[3];
          for (int64_t c = 0; c < cout_g; c++) {
            int64_t oc = grp * cout_g + c;
            for (int64_t ky = 0; ky < g->kh; ky++) {
              int64_t y = iy * g->stride[0] - g->pad[0] + ky * g->dil[0];
              if (y < 0 || y >= g->oh) continue;
              for (int64_t kx = 0; kx < g->kw; kx++) {
                int64_t x = ix * g->stride[1] - g->pad[1] + kx * g->dil[1];
                if (x < 0 || x >= g->ow) continue;
                const char *wp = W + ic * st->ws[0] + c * st->ws[1] + ky * st->ws[2] + kx * st->ws[3];
                char *op = O + n * st->os[0] + oc * st->os[1] + y * st->os[2] + x * st->os[3];
                if (isint) {
                  pk_store_i64(op, dt, pk_wadd(pk_load_i64(op, dt),
                                               pk_wmul(pk_load_i64(ip, dt), pk_load_i64(wp, dt))));
                } else if (ct == PK_CT_F32) {
                  float pr = pk_load_f32(ip, dt) * pk_load_f32(wp, dt);
                  pk_store_f32(op, dt, pk_load_f32(op, dt) + pr);
                } else {
                  pk_store_f64(op, dt, pk_load_f64(op, dt) + pk_load_f64(ip, dt) * pk_load_f64(wp, dt));
                }
              }
            }
          }
        }
    }
}

/* The checked arguments and the geometry. */
typedef struct conv_args {
  ptera_tensor *in, *w, *bias, *out;
  pk_conv2d_geom g;
  bool one_d;
} conv_args;

/* The prepared state: the constant weight src packed for geometry g. */
typedef struct conv_state {
  pk_conv2d_geom g;
  const void *src;
  const void *packed;
} conv_state;

/* Validates the arguments and builds the geometry (ctx NULL at prepare:
 * the status alone). */
static ptera_status conv_setup(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs, conv_args *ca) {
  static const char op[] = "aten::convolution.out";
  ptera_tensor *in, *w, *bias, *out;
  bool transposed;
  int64_t groups;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 11));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "weight", &w));
  PK_TRY(pk_get_opt_tensor(ctx, op, args, 2, "bias", &bias));
  PK_TRY(pk_get_bool(ctx, op, args, 6, "transposed", &transposed));
  PK_TRY(pk_get_int(ctx, op, args, 8, "groups", &groups));
  PK_TRY(pk_get_tensor(ctx, op, args, 9, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "input", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "weight", w));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "out", out));
  if (bias) PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "bias", bias));
  if (in->dim != 3 && in->dim != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' must have rank 3 or 4 (1-d or 2-d convolution), got %u",
                             op, (unsigned)in->dim);
  if (w->dim != in->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'weight' has rank %u but 'input' has rank %u", op,
                             (unsigned)w->dim, (unsigned)in->dim);
  bool one_d = in->dim == 3;
  size_t nsp = one_d ? 1 : 2;
  int64_t st[2], pd[2], dl[2], opd[2] = {0, 0};
  PK_TRY(pk_get_spatial(ctx, op, args, 3, "stride", nsp, 1, false, NULL, st));
  PK_TRY(pk_get_spatial(ctx, op, args, 4, "padding", nsp, 0, false, NULL, pd));
  PK_TRY(pk_get_spatial(ctx, op, args, 5, "dilation", nsp, 1, false, NULL, dl));
  if (transposed) {
    static const int64_t zero[2] = {0, 0};
    PK_TRY(pk_get_spatial(ctx, op, args, 7, "output_padding", nsp, 0, true, zero, opd));
  }
  pk_conv2d_geom g = {0};
  g.n = in->sizes[0];
  g.c_in = in->sizes[1];
  g.groups = groups;
  if (groups < 1 || g.c_in % groups != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'groups' = %lld must be positive and divide the %lld input "
                             "channels",
                             op, (long long)groups, (long long)g.c_in);
  if (transposed) {
    if (w->sizes[0] != g.c_in)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: transposed 'weight' dim 0 is %d, expected %lld input channels",
                               op, (int)w->sizes[0], (long long)g.c_in);
    g.c_out = (int64_t)w->sizes[1] * groups;
  } else {
    g.c_out = w->sizes[0];
    if (g.c_out % groups != 0 || (int64_t)w->sizes[1] * groups != g.c_in)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'weight' of %d x %d channels does not fit %lld input channels "
                               "in %lld groups",
                               op, (int)w->sizes[0], (int)w->sizes[1], (long long)g.c_in,
                               (long long)groups);
  }
  if (bias && (bias->dim != 1 || bias->sizes[0] != g.c_out))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'bias' must have shape [%lld]", op, (long long)g.c_out);
  g.h = one_d ? 1 : in->sizes[2];
  g.w = in->sizes[one_d ? 2 : 3];
  g.kh = one_d ? 1 : w->sizes[2];
  g.kw = w->sizes[one_d ? 2 : 3];
  for (size_t i = 0; i < 2; i++) {
    bool fixed = one_d && i == 0; /* the unit height of a 1-d convolution */
    g.stride[i] = fixed ? 1 : st[i + nsp - 2];
    g.pad[i] = fixed ? 0 : pd[i + nsp - 2];
    g.dil[i] = fixed ? 1 : dl[i + nsp - 2];
    g.out_pad[i] = fixed ? 0 : opd[i + nsp - 2];
  }
  g.transposed = transposed;
  g.layout = PK_CONV_NCHW;
  char why[160];
  if (pk_conv2d_geom_init(&g, why, sizeof why) != PTERA_OK)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: %s", op, why);
  *ca = (conv_args){in, w, bias, out, g, one_d};
  return PTERA_OK;
}

static bool channels_last(const ptera_tensor *t) {
  return t->dim == 4 && t->dim_order[0] == 0 && t->dim_order[1] == 2 && t->dim_order[2] == 3 &&
         t->dim_order[3] == 1;
}

/* The fast path's geometry for these tensors: float32, input, weight and
 * output all contiguous (NCHW) or all channels last (NHWC), a contiguous
 * bias; false when the fast path does not take them. */
static bool fast_geom(const conv_args *ca, pk_conv2d_geom *g) {
  if (ca->in->dtype != PTERA_DTYPE_FLOAT || (ca->bias && !ptera_tensor_is_contiguous(ca->bias))) return false;
  *g = ca->g;
  if (ptera_tensor_is_contiguous(ca->in) && ptera_tensor_is_contiguous(ca->w) &&
      ptera_tensor_is_contiguous(ca->out))
    g->layout = PK_CONV_NCHW;
  else if (channels_last(ca->in) && channels_last(ca->w) && channels_last(ca->out))
    g->layout = PK_CONV_NHWC;
  else
    return false;
  return pk_conv2d_f32_supported(g);
}

ptera_status pk_convolution_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  conv_args ca;
  pk_conv2d_geom g;
  if (conv_setup(NULL, args, nargs, &ca) != PTERA_OK || !fast_geom(&ca, &g)) return PTERA_OK;
  size_t bytes = pk_conv2d_f32_workspace(&g, ptera_kernel_prepare_thread_count(ctx));
  size_t pack = pk_conv2d_f32_pack_size(&g);
  if (bytes == SIZE_MAX || pack == SIZE_MAX || bytes > SIZE_MAX - pack) return PTERA_OK;
  const ptera_tensor *w = ca.w;
  if (!pack || !(w->flags & PTERA_TENSOR_CONST) || w->dynamism != PTERA_SHAPE_STATIC || !w->data) {
    ptera_kernel_prepare_workspace(ctx, bytes + pack); /* filters packed per call */
    return PTERA_OK;
  }
  conv_state *s = ptera_kernel_prepare_alloc(ctx, sizeof *s, 16);
  void *p = s ? ptera_kernel_prepare_alloc(ctx, pack, 64) : NULL;
  if (!p)
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                                     "out of memory packing %lld x %lld x %lld x %lld filters (%zu bytes)",
                                     (long long)g.c_out, (long long)pk_conv2d_cin_g(&g), (long long)g.kh,
                                     (long long)g.kw, pack);
  pk_conv2d_f32_pack(&g, w->data, p);
  *s = (conv_state){g, w->data, p};
  ptera_kernel_prepare_set_state(ctx, s);
  ptera_kernel_prepare_workspace(ctx, bytes);
  return PTERA_OK;
}

/* The fast path; false when it does not apply or its workspace is missing
 * (the portable loops run then). */
static bool conv_fast(ptera_kernel_ctx *ctx, const conv_args *ca) {
  pk_conv2d_geom fg;
  if (!fast_geom(ca, &fg)) return false;
  const pk_conv2d_geom *g = &fg;
  const conv_state *s = ptera_kernel_state(ctx);
  const void *packed = s && s->src == ca->w->data && pk_conv2d_f32_same_pack(&s->g, g) ? s->packed : NULL;
  size_t bytes = pk_conv2d_f32_workspace(g, ptera_kernel_thread_count(ctx));
  size_t pack = packed ? 0 : pk_conv2d_f32_pack_size(g);
  if (bytes == SIZE_MAX || pack == SIZE_MAX || bytes > SIZE_MAX - pack) return false;
  void *ws = NULL;
  if (bytes + pack && !(ws = ptera_kernel_temp(ctx, bytes + pack, 64))) return false;
  pk_conv2d_f32(g, ca->in->data, ca->w->data, packed, ca->bias ? ca->bias->data : NULL, ca->out->data,
                -INFINITY, INFINITY, ws, ctx);
  return true;
}

ptera_status pk_convolution_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::convolution.out";
  conv_args ca;
  PK_TRY(conv_setup(ctx, args, nargs, &ca));
  const pk_conv2d_geom *g = &ca.g;
  int32_t sizes[4] = {(int32_t)g->n, (int32_t)g->c_out, (int32_t)g->oh, (int32_t)g->ow};
  if (ca.one_d) sizes[2] = (int32_t)g->ow;
  PK_TRY(pk_resize(ctx, op, "out", ca.out, ca.in->dim, sizes));
  if (ca.out->numel == 0 || conv_fast(ctx, &ca)) return PTERA_OK;
  conv_strides cs;
  strides4(ca.in, ca.one_d, cs.is);
  strides4(ca.w, ca.one_d, cs.ws);
  strides4(ca.out, ca.one_d, cs.os);
  cs.bs = ca.bias ? (ptrdiff_t)ca.bias->strides[0] * (ptrdiff_t)ptera_dtype_size(ca.bias->dtype) : 0;
  if (g->transposed)
    conv_transposed(g, &cs, ca.in, ca.w, ca.bias, ca.out);
  else
    conv_forward(g, &cs, ca.in, ca.w, ca.bias, ca.out);
  return PTERA_OK;
}

/* aten::convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride,
 * SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding,
 * SymInt groups, *, Tensor(a!) out). 1-d ([N,C,L]) and 2-d ([N,C,H,W]) inputs, any dim
 * order; transposed convolution included. One real dtype throughout. */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/pool_util.h"

typedef struct conv_geo {
  int64_t n, cin, cout, groups, ih, iw, oh, ow, kh, kw;
  int64_t s[2], p[2], d[2];
  /* byte strides: [n, c, h, w] per tensor; w for 1-d is the only spatial dim */
  ptrdiff_t is[4], ws[4], os[4], bs;
} conv_geo;

static void strides4(const ptera_tensor *t, bool one_d, ptrdiff_t *s) {
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(t->dtype);
  s[0] = t->strides[0] * es;
  s[1] = t->strides[1] * es;
  s[2] = one_d ? 0 : t->strides[2] * es;
  s[3] = t->strides[one_d ? 2 : 3] * es;
}

static double wload(const char *p, int dt) { return pk_load_f64(p, dt); }

static void conv_forward(const conv_geo *g, const ptera_tensor *in, const ptera_tensor *w,
                         const ptera_tensor *bias, ptera_tensor *out) {
  int dt = out->dtype;
  pk_ctype ct = pk_compute_type(dt);
  int64_t cin_g = g->cin / g->groups, cout_g = g->cout / g->groups;
  const char *I = in->data, *W = w->data, *B = bias ? bias->data : NULL;
  char *O = out->data;
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t oc = 0; oc < g->cout; oc++) {
      int64_t grp = oc / cout_g;
      for (int64_t y = 0; y < g->oh; y++)
        for (int64_t x = 0; x < g->ow; x++) {
          float accf = 0.0f;
          double accd = 0.0;
          int64_t acci = 0;
          for (int64_t c = 0; c < cin_g; c++) {
            int64_t ic = grp * cin_g + c;
            for (int64_t ky = 0; ky < g->kh; ky++) {
              int64_t iy = y * g->s[0] - g->p[0] + ky * g->d[0];
              if (iy < 0 || iy >= g->ih) continue;
              for (int64_t kx = 0; kx < g->kw; kx++) {
                int64_t ix = x * g->s[1] - g->p[1] + kx * g->d[1];
                if (ix < 0 || ix >= g->iw) continue;
                const char *ip = I + n * g->is[0] + ic * g->is[1] + iy * g->is[2] + ix * g->is[3];
                const char *wp = W + oc * g->ws[0] + c * g->ws[1] + ky * g->ws[2] + kx * g->ws[3];
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
          char *op = O + n * g->os[0] + oc * g->os[1] + y * g->os[2] + x * g->os[3];
          if (ct == PK_CT_F32) {
            if (B) accf += pk_load_f32(B + oc * g->bs, dt);
            pk_store_f32(op, dt, accf);
          } else if (ct == PK_CT_F64) {
            if (B) accd += pk_load_f64(B + oc * g->bs, dt);
            pk_store_f64(op, dt, accd);
          } else {
            if (B) acci = pk_wadd(acci, pk_load_i64(B + oc * g->bs, dt));
            pk_store_i64(op, dt, acci);
          }
        }
    }
}

/* Transposed: scatter each input element through the kernel. */
static void conv_transposed(const conv_geo *g, const ptera_tensor *in, const ptera_tensor *w,
                            const ptera_tensor *bias, ptera_tensor *out) {
  int dt = out->dtype;
  int64_t cin_g = g->cin / g->groups, cout_g = g->cout / g->groups;
  const char *I = in->data, *W = w->data, *B = bias ? bias->data : NULL;
  char *O = out->data;
  pk_ctype ct = pk_compute_type(dt);
  bool isint = ct == PK_CT_I64;
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t oc = 0; oc < g->cout; oc++)
      for (int64_t y = 0; y < g->oh; y++)
        for (int64_t x = 0; x < g->ow; x++) {
          char *op = O + n * g->os[0] + oc * g->os[1] + y * g->os[2] + x * g->os[3];
          if (isint)
            pk_store_i64(op, dt, B ? pk_load_i64(B + oc * g->bs, dt) : 0);
          else
            pk_store_f64(op, dt, B ? pk_load_f64(B + oc * g->bs, dt) : 0.0);
        }
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t ic = 0; ic < g->cin; ic++) {
      int64_t grp = ic / cin_g;
      for (int64_t iy = 0; iy < g->ih; iy++)
        for (int64_t ix = 0; ix < g->iw; ix++) {
          const char *ip = I + n * g->is[0] + ic * g->is[1] + iy * g->is[2] + ix * g->is[3];
          for (int64_t c = 0; c < cout_g; c++) {
            int64_t oc = grp * cout_g + c;
            for (int64_t ky = 0; ky < g->kh; ky++) {
              int64_t y = iy * g->s[0] - g->p[0] + ky * g->d[0];
              if (y < 0 || y >= g->oh) continue;
              for (int64_t kx = 0; kx < g->kw; kx++) {
                int64_t x = ix * g->s[1] - g->p[1] + kx * g->d[1];
                if (x < 0 || x >= g->ow) continue;
                const char *wp = W + ic * g->ws[0] + c * g->ws[1] + ky * g->ws[2] + kx * g->ws[3];
                char *op = O + n * g->os[0] + oc * g->os[1] + y * g->os[2] + x * g->os[3];
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

ptera_status pk_convolution_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
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
  conv_geo g;
  g.n = in->sizes[0];
  g.cin = in->sizes[1];
  g.groups = groups;
  if (groups < 1 || g.cin % groups != 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'groups' = %lld must be positive and divide the %lld input "
                             "channels",
                             op, (long long)groups, (long long)g.cin);
  if (transposed) {
    if (w->sizes[0] != g.cin)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: transposed 'weight' dim 0 is %d, expected %lld input channels",
                               op, (int)w->sizes[0], (long long)g.cin);
    g.cout = (int64_t)w->sizes[1] * groups;
  } else {
    g.cout = w->sizes[0];
    if (g.cout % groups != 0 || (int64_t)w->sizes[1] * groups != g.cin)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'weight' of %d x %d channels does not fit %lld input channels "
                               "in %lld groups",
                               op, (int)w->sizes[0], (int)w->sizes[1], (long long)g.cin,
                               (long long)groups);
  }
  if (bias && (bias->dim != 1 || bias->sizes[0] != g.cout))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'bias' must have shape [%lld]", op, (long long)g.cout);
  g.ih = one_d ? 1 : in->sizes[2];
  g.iw = in->sizes[one_d ? 2 : 3];
  g.kh = one_d ? 1 : w->sizes[2];
  g.kw = w->sizes[one_d ? 2 : 3];
  g.s[0] = one_d ? 1 : st[0];
  g.s[1] = st[nsp - 1];
  g.p[0] = one_d ? 0 : pd[0];
  g.p[1] = pd[nsp - 1];
  g.d[0] = one_d ? 1 : dl[0];
  g.d[1] = dl[nsp - 1];
  int64_t op0 = one_d ? 0 : opd[0], op1 = opd[nsp - 1];
  if (transposed) {
    g.oh = (g.ih - 1) * g.s[0] - 2 * g.p[0] + g.d[0] * (g.kh - 1) + op0 + 1;
    g.ow = (g.iw - 1) * g.s[1] - 2 * g.p[1] + g.d[1] * (g.kw - 1) + op1 + 1;
  } else {
    g.oh = (g.ih + 2 * g.p[0] - g.d[0] * (g.kh - 1) - 1) / g.s[0] + 1;
    g.ow = (g.iw + 2 * g.p[1] - g.d[1] * (g.kw - 1) - 1) / g.s[1] + 1;
    if (g.ih + 2 * g.p[0] < g.d[0] * (g.kh - 1) + 1 || g.iw + 2 * g.p[1] < g.d[1] * (g.kw - 1) + 1)
      g.oh = 0;
  }
  if (g.oh <= 0 || g.ow <= 0 || g.oh > INT32_MAX || g.ow > INT32_MAX || g.cout > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: the kernel does not fit the padded input (output size %lld x "
                             "%lld)",
                             op, (long long)g.oh, (long long)g.ow);
  int32_t sizes[4] = {(int32_t)g.n, (int32_t)g.cout, (int32_t)g.oh, (int32_t)g.ow};
  if (one_d) sizes[2] = (int32_t)g.ow;
  PK_TRY(pk_resize(ctx, op, "out", out, in->dim, sizes));
  if (out->numel == 0) return PTERA_OK;
  strides4(in, one_d, g.is);
  strides4(w, one_d, g.ws);
  strides4(out, one_d, g.os);
  g.bs = bias ? (ptrdiff_t)bias->strides[0] * (ptrdiff_t)ptera_dtype_size(bias->dtype) : 0;
  if (transposed)
    conv_transposed(&g, in, w, bias, out);
  else
    conv_forward(&g, in, w, bias, out);
  return PTERA_OK;
}

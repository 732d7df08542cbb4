/* cadence::quantized_conv2d_nchw.per_tensor_out(Tensor input, Tensor weight, Tensor bias,
 * int[] stride, SymInt[] padding, int[] dilation, int groups, int input_zero_point,
 * int weight_zero_point, float bias_scale, float out_scale, int out_zero_point,
 * int out_multiplier, int out_shift, *, Tensor(a!) out)
 *
 * As the generic host kernel (conv2d_nchw_core_generic, quantized):
 *   acc = (float)bias[oc]; for ic, kh, kw (in that order, taps outside the
 *   input skipped): acc += (float)(in - in_zp) * (float)(w - w_zp)   [float32,
 *   one rounding per product and per sum, no FMA];
 *   out = clamp((float)out_zp + nearbyintf((1.0f / (float)out_scale) *
 *                                          ((float)bias_scale * acc)))
 * to the limits of out's dtype. in_zp and out_zp are narrowed to the activation
 * type as the reference does; weight_zero_point must lie in [-128, 127] (the
 * reference checks it). out_multiplier and out_shift are unused.
 * Dtypes (input, weight, out): (Byte, Byte, Byte), (Char, Char, Char),
 * (Short, Short, Short), (Short, Char, Short); bias Int. A 3-D input
 * [n, c, w] with weight [oc, wc, k] is a 1-D convolution (height 1, using
 * stride[1], padding[1], dilation[1] along the width). Tensors must be
 * contiguous; out is resized to [n, oc, oh, ow] from the usual formula.
 *
 * Product and sum are separate statements so no compiler fuses them into an
 * FMA under ISO C (-std=c11: GCC's -ffp-contract=off, Clang contracts only
 * within an expression). For 8-bit and W8A16 operands every product is exact
 * in float32 anyway; only all-Short convolutions would change under fusion
 * (e.g. a gnu11 build with FMA hardware). */
#include "cadence/cadence_util.h"
#include "cpu/conv_geom.h"

typedef struct conv_params {
  pk_conv2d_geom g;
  int32_t in_zp, w_zp, out_zp;
  float bias_scale, inv_out_scale;
  int64_t lo, hi;
} conv_params;

#define DEFINE_CONV(name, IT, WT, OT)                                                               \
  static void name(const conv_params *p, const IT *in, const WT *wt, const int32_t *bias,           \
                   OT *out) {                                                                       \
    const int64_t ocpg = p->g.c_out / p->g.groups, icpg = p->g.c_in / p->g.groups;                  \
    for (int64_t b = 0; b < p->g.n; b++) {                                                          \
      const IT *in_b = in + (size_t)(b * p->g.c_in * p->g.h * p->g.w);                              \
      OT *out_b = out + (size_t)(b * p->g.c_out * p->g.oh * p->g.ow);                               \
      for (int64_t grp = 0; grp < p->g.groups; grp++) {                                             \
        const int64_t sic = grp * icpg, soc = grp * ocpg;                                           \
        for (int64_t o = soc; o < soc + ocpg; o++) {                                                \
          OT *out_plane = out_b + (size_t)(o * p->g.oh * p->g.ow);                                  \
          const WT *w_o = wt + (size_t)(o * icpg * p->g.kh * p->g.kw);                              \
          for (int64_t y = 0; y < p->g.oh; y++) {                                                   \
            for (int64_t x = 0; x < p->g.ow; x++) {                                                 \
              float acc = (float)bias[o];                                                           \
              for (int64_t ic = sic; ic < sic + icpg; ic++) {                                       \
                const IT *in_plane = in_b + (size_t)(ic * p->g.h * p->g.w);                         \
                const WT *w_plane = w_o + (size_t)((ic - sic) * p->g.kh * p->g.kw);                 \
                for (int64_t ky = 0; ky < p->g.kh; ky++) {                                          \
                  const int64_t iy = y * p->g.stride[0] + p->g.dil[0] * ky - p->g.pad[0];           \
                  if (iy < 0 || iy >= p->g.h) continue;                                             \
                  for (int64_t kx = 0; kx < p->g.kw; kx++) {                                        \
                    const int64_t ix = x * p->g.stride[1] + p->g.dil[1] * kx - p->g.pad[1];         \
                    if (ix < 0 || ix >= p->g.w) continue;                                           \
                    const float lhs = (float)((int32_t)in_plane[iy * p->g.w + ix] - p->in_zp);      \
                    const float rhs = (float)((int32_t)w_plane[ky * p->g.kw + kx] - p->w_zp);       \
                    const float prod = lhs * rhs;                                                   \
                    acc = acc + prod;                                                               \
                  }                                                                                 \
                }                                                                                   \
              }                                                                                     \
              const float val = p->bias_scale * acc;                                                \
              out_plane[y * p->g.ow + x] =                                                          \
                  (OT)pkc_quantize(val, p->inv_out_scale, p->out_zp, p->lo, p->hi);                 \
            }                                                                                       \
          }                                                                                         \
        }                                                                                           \
      }                                                                                             \
    }                                                                                               \
  }

DEFINE_CONV(conv_u8, uint8_t, uint8_t, uint8_t)
DEFINE_CONV(conv_i8, int8_t, int8_t, int8_t)
DEFINE_CONV(conv_i16, int16_t, int16_t, int16_t)
DEFINE_CONV(conv_i16_w8, int16_t, int8_t, int16_t)

static ptera_status check_list(ptera_kernel_ctx *ctx, const char *op, const char *name,
                               const int64_t *v, int64_t min) {
  for (int k = 0; k < 2; k++)
    if (v[k] < min || v[k] > INT16_MAX)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: %s[%d] = %lld outside [%lld, %d]",
                               op, name, k, (long long)v[k], (long long)min, INT16_MAX);
  return PTERA_OK;
}

ptera_status pk_cadence_quantized_conv2d_nchw_per_tensor_out(ptera_kernel_ctx *ctx,
                                                             ptera_value **args, size_t nargs) {
  static const char op[] = "cadence::quantized_conv2d_nchw.per_tensor_out";
  ptera_tensor *in = NULL, *wt = NULL, *bias = NULL, *out = NULL, *ret = NULL;
  int64_t stride[2] = {0, 0}, padding[2] = {0, 0}, dilation[2] = {0, 0};
  int64_t groups = 0, in_zp = 0, w_zp = 0, out_zp = 0, out_mult = 0, out_shift = 0;
  double bias_scale = 0, out_scale = 0;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 16));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "weight", &wt));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "bias", &bias));
  PK_TRY(pkc_int_pair(ctx, op, args, 3, "stride", stride));
  PK_TRY(pkc_int_pair(ctx, op, args, 4, "padding", padding));
  PK_TRY(pkc_int_pair(ctx, op, args, 5, "dilation", dilation));
  PK_TRY(pk_get_int(ctx, op, args, 6, "groups", &groups));
  PK_TRY(pk_get_int(ctx, op, args, 7, "input_zero_point", &in_zp));
  PK_TRY(pk_get_int(ctx, op, args, 8, "weight_zero_point", &w_zp));
  PK_TRY(pk_get_double(ctx, op, args, 9, "bias_scale", &bias_scale));
  PK_TRY(pk_get_double(ctx, op, args, 10, "out_scale", &out_scale));
  PK_TRY(pk_get_int(ctx, op, args, 11, "out_zero_point", &out_zp));
  PK_TRY(pk_get_int(ctx, op, args, 12, "out_multiplier", &out_mult));
  PK_TRY(pk_get_int(ctx, op, args, 13, "out_shift", &out_shift));
  PK_TRY(pk_get_tensor(ctx, op, args, 14, "out", &out));
  PK_TRY(pk_get_tensor(ctx, op, args, 15, "return", &ret));
  (void)out_mult;
  (void)out_shift;
  (void)ret;

  /* dtypes */
  enum { K_U8, K_I8, K_I16, K_I16_W8 } kind;
  if (out->dtype == PTERA_DTYPE_SHORT && in->dtype == PTERA_DTYPE_SHORT &&
      wt->dtype == PTERA_DTYPE_CHAR) {
    kind = K_I16_W8;
  } else if (in->dtype == out->dtype && wt->dtype == out->dtype &&
             (out->dtype == PTERA_DTYPE_BYTE || out->dtype == PTERA_DTYPE_CHAR ||
              out->dtype == PTERA_DTYPE_SHORT)) {
    kind = out->dtype == PTERA_DTYPE_BYTE ? K_U8 : out->dtype == PTERA_DTYPE_CHAR ? K_I8 : K_I16;
  } else {
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: unsupported dtypes input %s, weight %s, out %s (supported: "
                             "all Byte, all Char, all Short, or Short/Char/Short)",
                             op, ptera_dtype_name(in->dtype), ptera_dtype_name(wt->dtype),
                             ptera_dtype_name(out->dtype));
  }
  if (bias->dtype != PTERA_DTYPE_INT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: bias must be Int, got %s", op,
                             ptera_dtype_name(bias->dtype));

  /* shapes */
  const bool conv1d = in->dim == 3;
  if ((in->dim != 3 && in->dim != 4) || wt->dim != in->dim || out->dim != in->dim)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: input, weight and out must all be 4-D (or all 3-D), got %u, %u, %u",
                             op, (unsigned)in->dim, (unsigned)wt->dim, (unsigned)out->dim);
  if (!ptera_tensor_is_contiguous(in) || !ptera_tensor_is_contiguous(wt) ||
      !ptera_tensor_is_contiguous(out) || !ptera_tensor_is_contiguous(bias))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: tensors must be contiguous (NCHW)",
                             op);
  PK_TRY(check_list(ctx, op, "stride", stride, 1));
  PK_TRY(check_list(ctx, op, "padding", padding, 0));
  PK_TRY(check_list(ctx, op, "dilation", dilation, 1));
  if (groups < 1 || groups > INT16_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: groups %lld outside [1, %d]", op,
                             (long long)groups, INT16_MAX);
  const int32_t wzp32 = pkc_wrap_i32(w_zp);
  if (wzp32 < -128 || wzp32 > 127)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: weight_zero_point %lld must be in [-128, 127]", op,
                             (long long)w_zp);

  conv_params p;
  pk_conv2d_geom *g = &p.g;
  *g = (pk_conv2d_geom){0};
  g->n = in->sizes[0];
  g->c_in = in->sizes[1];
  g->h = conv1d ? 1 : in->sizes[2];
  g->w = conv1d ? in->sizes[2] : in->sizes[3];
  g->c_out = wt->sizes[0];
  g->kh = conv1d ? 1 : wt->sizes[2];
  g->kw = conv1d ? wt->sizes[2] : wt->sizes[3];
  for (int i = 0; i < 2; i++) {
    g->stride[i] = stride[i];
    g->pad[i] = padding[i];
    g->dil[i] = dilation[i];
  }
  g->groups = groups;
  g->layout = PK_CONV_NCHW;
  if (g->c_in % groups != 0 || g->c_out % groups != 0 || wt->sizes[1] != g->c_in / groups)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: channels do not match groups (input %lld, weight [%lld, %lld], "
                             "groups %lld)",
                             op, (long long)g->c_in, (long long)g->c_out, (long long)wt->sizes[1],
                             (long long)groups);
  if ((size_t)bias->numel != (size_t)g->c_out)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: bias has %zu elements, expected %lld",
                             op, bias->numel, (long long)g->c_out);
  char why[160];
  if (pk_conv2d_geom_init(g, why, sizeof why) != PTERA_OK)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: %s", op, why);
  /* As the reference: a 1-d convolution has one output row whatever
   * padding[0] and stride[0] say (its taps still use them). */
  if (conv1d) g->oh = 1;
  int32_t osizes[4];
  osizes[0] = (int32_t)g->n;
  osizes[1] = (int32_t)g->c_out;
  if (conv1d) {
    osizes[2] = (int32_t)g->ow;
  } else {
    osizes[2] = (int32_t)g->oh;
    osizes[3] = (int32_t)g->ow;
  }
  if (ptera_tensor_resize(out, in->dim, osizes) != PTERA_OK)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: out cannot be resized to the convolution's output shape", op);

  /* quantization parameters, narrowed as the reference narrows them */
  const bool w8 = kind == K_I16_W8;
  const int bits = kind == K_U8 ? 8 : kind == K_I8 ? 8 : 16;
  const bool is_signed = kind != K_U8;
  p.in_zp = pkc_wrap_bits(pkc_wrap_i32(in_zp), bits, is_signed);
  p.w_zp = w8 ? pkc_wrap_bits(wzp32, 8, true) : wzp32;
  p.out_zp = pkc_wrap_bits(pkc_wrap_i32(out_zp), bits, is_signed);
  p.bias_scale = (float)bias_scale;
  p.inv_out_scale = 1.0f / (float)out_scale;
  p.lo = kind == K_U8 ? 0 : kind == K_I8 ? INT8_MIN : INT16_MIN;
  p.hi = kind == K_U8 ? UINT8_MAX : kind == K_I8 ? INT8_MAX : INT16_MAX;

  const int32_t *bp = (const int32_t *)bias->data;
  switch (kind) {
    case K_U8: conv_u8(&p, in->data, wt->data, bp, out->data); break;
    case K_I8: conv_i8(&p, in->data, wt->data, bp, out->data); break;
    case K_I16: conv_i16(&p, in->data, wt->data, bp, out->data); break;
    case K_I16_W8: conv_i16_w8(&p, in->data, wt->data, bp, out->data); break;
  }
  return PTERA_OK;
}

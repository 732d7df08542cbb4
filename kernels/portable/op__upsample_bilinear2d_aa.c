/* aten::_upsample_bilinear2d_aa.out(Tensor self, SymInt[2] output_size,
 * bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out):
 * antialiased bilinear resize of [N,C,H,W] to [N,C,OH,OW]. Per output pixel, along
 * each axis with scale s (input/output, or 1/scale when a scale is given): centre
 * c = s*(o+0.5), support r = max(s, 1), contributors x in [int(c-r+0.5), int(c+r+0.5))
 * clipped to the input, weights tri((x - c + 0.5) / max(s, 1)) normalized to sum 1
 * (PyTorch's _compute_indices_weights_aa; align_corners only changes s). Weights in
 * float; values accumulated as ExecuTorch does, v += x * wh * ww, in the input dtype
 * (float for Float, double for Double, each step rounded to the dtype for Half,
 * BFloat16 and integers). Unlike ExecuTorch, contributors are not capped at 4 (for
 * downscales by more than about 1.5 ExecuTorch drops taps PyTorch uses). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/upsample_util.h"

typedef struct aa_axis {
  int64_t lo, n; /* first contributor and count */
  float c, inv, total;
} aa_axis;

static float aa_tri(float x) {
  x = fabsf(x);
  return x < 1.0f ? 1.0f - x : 0.0f;
}

static float aa_w(const aa_axis *a, int64_t j) {
  float w = aa_tri(((float)j + (float)a->lo - a->c + 0.5f) * a->inv);
  return a->total > 0.0f ? w / a->total : 1.0f / (float)a->n;
}

static aa_axis aa_setup(float scale, int64_t o, int64_t in) {
  aa_axis a;
  a.c = scale * ((float)o + 0.5f);
  float support = scale >= 1.0f ? scale : 1.0f;
  a.inv = scale >= 1.0f ? 1.0f / scale : 1.0f;
  float lo = a.c - support + 0.5f, hi = a.c + support + 0.5f;
  int64_t xmin = lo > 0.0f ? (int64_t)lo : 0;
  int64_t xmax = hi < (float)in ? (int64_t)hi : in;
  a.lo = xmin;
  a.n = xmax - xmin;
  a.total = 0.0f;
  if (a.n <= 0) { /* cannot happen for valid sizes; keep one in-range tap */
    a.lo = a.c < 0.0f ? 0 : (a.c >= (float)(in - 1) ? in - 1 : (int64_t)a.c);
    a.n = 1;
    a.total = 1.0f;
    a.inv = 0.0f;
    a.c = (float)a.lo + 0.5f;
    return a;
  }
  for (int64_t j = 0; j < a.n; j++) a.total += aa_tri(((float)j + (float)xmin - a.c + 0.5f) * a.inv);
  return a;
}

/* Rounds an accumulator the way storing it in dtype dt and reading it back would. */
static float aa_settle(float v, int dt) {
  switch (dt) {
    case PTERA_DTYPE_FLOAT: return v;
    case PTERA_DTYPE_HALF: return pt_half_to_float(pt_float_to_half(v));
    case PTERA_DTYPE_BFLOAT16: return pt_bf16_to_float(pt_float_to_bf16(v));
    default: return (float)pk_wrap_to(pk_f64_to_i64((double)v), dt);
  }
}

static void aa_resize(const ptera_tensor *in, ptera_tensor *out, float sh, float sw) {
  int dt = in->dtype;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);
  int64_t H = in->sizes[2], W = in->sizes[3];
  for (int64_t n = 0; n < out->sizes[0]; n++)
    for (int64_t c = 0; c < out->sizes[1]; c++) {
      const char *plane = (const char *)in->data + (ptrdiff_t)(n * in->strides[0] + c * in->strides[1]) * es;
      for (int64_t oh = 0; oh < out->sizes[2]; oh++) {
        aa_axis ah = aa_setup(sh, oh, H);
        for (int64_t ow = 0; ow < out->sizes[3]; ow++) {
          aa_axis aw = aa_setup(sw, ow, W);
          float accf = 0.0f;
          double accd = 0.0;
          for (int64_t i = 0; i < ah.n; i++) {
            float wh = aa_w(&ah, i);
            const char *row = plane + (ptrdiff_t)((ah.lo + i) * in->strides[2]) * es;
            for (int64_t j = 0; j < aw.n; j++) {
              float ww = aa_w(&aw, j);
              const char *p = row + (ptrdiff_t)((aw.lo + j) * in->strides[3]) * es;
              if (dt == PTERA_DTYPE_DOUBLE)
                accd += *(const double *)p * (double)wh * (double)ww;
              else
                accf = aa_settle(accf + pk_load_f32(p, dt) * wh * ww, dt);
            }
          }
          char *op = (char *)out->data + (ptrdiff_t)(n * out->strides[0] + c * out->strides[1] +
                                                     oh * out->strides[2] + ow * out->strides[3]) * es;
          if (dt == PTERA_DTYPE_DOUBLE)
            *(double *)op = accd;
          else
            pk_store_f32(op, dt, accf);
        }
      }
    }
}

static ptera_status aa_opt_scale(ptera_kernel_ctx *ctx, const char *op, ptera_value **args, size_t i,
                                 const char *name, double *out, bool *has) {
  const ptera_value *v = args[i];
  *has = false;
  if (v && v->tag == PTERA_TAG_NONE) return PTERA_OK;
  PK_TRY(pk_get_double(ctx, op, args, i, name, out));
  *has = true;
  if (!(*out > 0.0) || isinf(*out))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' must be positive, got %g", op, name, *out);
  return PTERA_OK;
}

ptera_status pk_upsample_bilinear2d_aa_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::_upsample_bilinear2d_aa.out";
  ptera_tensor *in, *out;
  bool align, has_h, has_w;
  int64_t osz[2];
  size_t n = 0;
  double sc[2] = {0.0, 0.0};
  PK_TRY(pk_check_nargs(ctx, op, nargs, 7));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "output_size", osz, 2, &n));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "align_corners", &align));
  PK_TRY(aa_opt_scale(ctx, op, args, 3, "scales_h", &sc[0], &has_h));
  PK_TRY(aa_opt_scale(ctx, op, args, 4, "scales_w", &sc[1], &has_w));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  if (in->dim != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must be 4-D, got rank %u", op,
                             (unsigned)in->dim);
  if (n != 2 || osz[0] <= 0 || osz[1] <= 0 || osz[0] > INT32_MAX || osz[1] > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'output_size' must be 2 positive sizes", op);
  if (in->sizes[2] <= 0 || in->sizes[3] <= 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' has an empty spatial dim", op);
  int32_t sizes[4] = {in->sizes[0], in->sizes[1], (int32_t)osz[0], (int32_t)osz[1]};
  PK_TRY(pk_resize(ctx, op, "out", out, 4, sizes));
  if (out->numel == 0) return PTERA_OK;
  float s[2];
  for (int k = 0; k < 2; k++) {
    double given = (k == 0 ? has_h : has_w) ? sc[k] : (double)sizes[2 + k] / (double)in->sizes[2 + k];
    s[k] = (float)pk_area_scale(in->sizes[2 + k], sizes[2 + k], align, given);
  }
  aa_resize(in, out, s[0], s[1]);
  return PTERA_OK;
}

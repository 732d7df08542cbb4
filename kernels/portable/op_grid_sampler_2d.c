/* aten::grid_sampler_2d.out(Tensor input, Tensor grid, int interpolation_mode,
 * int padding_mode, bool align_corners, *, Tensor(a!) out): input [N,C,H,W],
 * grid (Float) [N,OH,OW,2] of (x, y) in [-1, 1]; out [N,C,OH,OW].
 * interpolation 0 bilinear, 1 nearest (2 bicubic is rejected, as in ExecuTorch);
 * padding 0 zeros, 1 border, 2 reflection. Follows ExecuTorch's portable kernel:
 * coordinates unnormalized in float, padding applied to each integer corner,
 * value = nw*w_nw + ne*w_ne + sw*w_sw + se*w_se. */
#include "builtin.h"
#include "portable/util/pk.h"

static float unnormalize(float c, int64_t size, bool align) {
  float v = align ? ((c + 1.0f) / 2.0f) * (float)(size - 1) : ((c + 1.0f) * (float)size - 1.0f) / 2.0f;
  /* keep later float->int conversions defined for huge or NaN coordinates */
  if (!(v > -1e12f)) v = -1e12f;
  if (v > 1e12f) v = 1e12f;
  return v;
}

static int64_t reflect(int64_t c, int64_t size) {
  if (size <= 1) return 0;
  int64_t d = 2 * size - 2;
  int64_t a = (c < 0 ? -c : c) % d;
  return a >= size ? d - a : a;
}

typedef struct gs_ctx {
  const ptera_tensor *in;
  int64_t H, W, pad;
  ptrdiff_t es;
} gs_ctx;

/* Loads input[n, c, h, w] with padding; *zero when the zeros padding applies. */
static double pixel(const gs_ctx *g, const char *plane, int64_t h, int64_t w) {
  if (h < 0 || h >= g->H || w < 0 || w >= g->W) {
    if (g->pad == 0) return 0.0;
    if (g->pad == 1) {
      h = h < 0 ? 0 : h >= g->H ? g->H - 1 : h;
      w = w < 0 ? 0 : w >= g->W ? g->W - 1 : w;
    } else {
      h = reflect(h, g->H);
      w = reflect(w, g->W);
    }
  }
  return pk_load_f64(plane + (ptrdiff_t)(h * g->in->strides[2] + w * g->in->strides[3]) * g->es,
                     g->in->dtype);
}

ptera_status pk_grid_sampler_2d_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::grid_sampler_2d.out";
  ptera_tensor *in, *grid, *out;
  int64_t interp, pad;
  bool align;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 7));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "grid", &grid));
  PK_TRY(pk_get_int(ctx, op, args, 2, "interpolation_mode", &interp));
  PK_TRY(pk_get_int(ctx, op, args, 3, "padding_mode", &pad));
  PK_TRY(pk_get_bool(ctx, op, args, 4, "align_corners", &align));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "input", in));
  if (in->dtype == PTERA_DTYPE_HALF || in->dtype == PTERA_DTYPE_BFLOAT16)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' dtype %s is not supported",
                             op, ptera_dtype_name(in->dtype));
  PK_TRY(pk_check_same_dtype(ctx, op, "input", in, "out", out));
  PK_TRY(pk_check_dtype(ctx, op, "grid", grid, PTERA_DTYPE_FLOAT));
  if (in->dim != 4 || grid->dim != 4 || grid->sizes[3] != 2 || grid->sizes[0] != in->sizes[0])
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'input' must be [N,C,H,W] and 'grid' [N,OH,OW,2]", op);
  if (interp < 0 || interp > 1)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'interpolation_mode' %lld is not supported (0 bilinear, 1 nearest)",
                             op, (long long)interp);
  if (pad < 0 || pad > 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'padding_mode' %lld must be 0 (zeros), 1 (border) or 2 (reflection)",
                             op, (long long)pad);
  int32_t sizes[4] = {in->sizes[0], in->sizes[1], grid->sizes[1], grid->sizes[2]};
  PK_TRY(pk_resize(ctx, op, "out", out, 4, sizes));
  if (out->numel == 0) return PTERA_OK;
  if (in->sizes[2] == 0 || in->sizes[3] == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'input' has an empty spatial dim", op);
  gs_ctx g = {in, in->sizes[2], in->sizes[3], pad, (ptrdiff_t)ptera_dtype_size(in->dtype)};
  bool f64 = in->dtype == PTERA_DTYPE_DOUBLE;
  ptrdiff_t oes = g.es;
  for (int64_t n = 0; n < sizes[0]; n++)
    for (int64_t c = 0; c < sizes[1]; c++) {
      const char *plane = (const char *)in->data + (ptrdiff_t)(n * in->strides[0] + c * in->strides[1]) * g.es;
      for (int64_t h = 0; h < sizes[2]; h++)
        for (int64_t w = 0; w < sizes[3]; w++) {
          const float *gp = (const float *)grid->data + n * grid->strides[0] + h * grid->strides[1] +
                            w * grid->strides[2];
          float x = gp[0], y = gp[grid->strides[3]];
          double v;
          if (interp == 0) {
            float rx = unnormalize(x, g.W, align), ry = unnormalize(y, g.H, align);
            int64_t ix = (int64_t)floorf(rx), iy = (int64_t)floorf(ry);
            float lx = rx - (float)ix, ly = ry - (float)iy;
            float w_nw = (1.0f - lx) * (1.0f - ly), w_ne = lx * (1.0f - ly);
            float w_sw = (1.0f - lx) * ly, w_se = lx * ly;
            double nw = pixel(&g, plane, iy, ix), ne = pixel(&g, plane, iy, ix + 1);
            double sw = pixel(&g, plane, iy + 1, ix), se = pixel(&g, plane, iy + 1, ix + 1);
            if (f64)
              v = nw * w_nw + ne * w_ne + sw * w_sw + se * w_se;
            else
              v = (float)nw * w_nw + (float)ne * w_ne + (float)sw * w_sw + (float)se * w_se;
          } else {
            float rx = unnormalize(x, g.W, align), ry = unnormalize(y, g.H, align);
            v = pixel(&g, plane, (int64_t)roundf(ry), (int64_t)roundf(rx));
          }
          ptrdiff_t oo = (ptrdiff_t)(n * out->strides[0] + c * out->strides[1] + h * out->strides[2] +
                                     w * out->strides[3]);
          pk_store_f64((char *)out->data + oo * oes, out->dtype, v);
        }
    }
  return PTERA_OK;
}

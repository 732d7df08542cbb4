/* aten::upsample_bilinear2d.vec_out(Tensor input, SymInt[]? output_size,
 * bool align_corners, float[]? scale_factors, *, Tensor(a!) out):
 * [N,C,H,W] -> [N,C,OH,OW]. As ExecuTorch: source indices and weights in float
 * (from a double scale), values in float (double for Double) as
 * ((x00*w0 + x01*w1)*h0 + (x10*w0 + x11*w1)*h1). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/upsample_io.h"
#include "portable/util/upsample_util.h"

typedef struct lin_w {
  int64_t i0, i1;
  float l0, l1;
} lin_w;

static lin_w lin_weights(float scale, int64_t dst, int64_t in, int64_t out, bool align) {
  lin_w r;
  if (in == out) {
    r.i0 = r.i1 = dst;
    r.l0 = 1.0f;
    r.l1 = 0.0f;
    return r;
  }
  float real = align ? scale * (float)dst : scale * ((float)dst + 0.5f) - 0.5f;
  if (!align && real < 0.0f) real = 0.0f;
  int64_t i0 = (int64_t)floorf(real);
  if (i0 > in - 1) i0 = in - 1;
  float l1 = real - (float)i0;
  if (l1 < 0.0f) l1 = 0.0f;
  if (l1 > 1.0f) l1 = 1.0f;
  r.i0 = i0;
  r.i1 = i0 + (i0 < in - 1 ? 1 : 0);
  r.l1 = l1;
  r.l0 = 1.0f - l1;
  return r;
}

#define PK_BILINEAR(NAME, T)                                                                   \
  static void NAME(const ptera_tensor *in, ptera_tensor *out, float sh, float sw, bool align) { \
    int64_t H = in->sizes[2], W = in->sizes[3], OH = out->sizes[2], OW = out->sizes[3];       \
    int dt = in->dtype;                                                                        \
    ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);                                            \
    for (int64_t n = 0; n < out->sizes[0]; n++)                                                \
      for (int64_t c = 0; c < out->sizes[1]; c++) {                                            \
        const char *plane = (const char *)in->data + (ptrdiff_t)(n * in->strides[0] + c * in->strides[1]) * es; \
        for (int64_t oh = 0; oh < OH; oh++) {                                                  \
          lin_w h = lin_weights(sh, oh, H, OH, align);                                         \
          ptrdiff_t r0 = (ptrdiff_t)(h.i0 * in->strides[2]), r1 = (ptrdiff_t)(h.i1 * in->strides[2]); \
          for (int64_t ow = 0; ow < OW; ow++) {                                                \
            lin_w w = lin_weights(sw, ow, W, OW, align);                                       \
            ptrdiff_t c0 = (ptrdiff_t)(w.i0 * in->strides[3]), c1 = (ptrdiff_t)(w.i1 * in->strides[3]); \
            T x00 = (T)pk_load_f64(plane + (r0 + c0) * es, dt);                                \
            T x01 = (T)pk_load_f64(plane + (r0 + c1) * es, dt);                                \
            T x10 = (T)pk_load_f64(plane + (r1 + c0) * es, dt);                                \
            T x11 = (T)pk_load_f64(plane + (r1 + c1) * es, dt);                                \
            T top = x00 * (T)w.l0 + x01 * (T)w.l1, bot = x10 * (T)w.l0 + x11 * (T)w.l1;        \
            T v = top * (T)h.l0 + bot * (T)h.l1;                                               \
            ptrdiff_t oo = (ptrdiff_t)(n * out->strides[0] + c * out->strides[1] +             \
                                       oh * out->strides[2] + ow * out->strides[3]);           \
            pk_store_f64((char *)out->data + oo * es, dt, (double)v);                          \
          }                                                                                    \
        }                                                                                      \
      }                                                                                        \
  }

PK_BILINEAR(bilinear_f32, float)
PK_BILINEAR(bilinear_f64, double)

ptera_status pk_upsample_bilinear2d_vec_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::upsample_bilinear2d.vec_out";
  ptera_tensor *in, *out;
  bool align;
  int32_t sizes[4];
  double scales[2];
  PK_TRY(pk_check_nargs(ctx, op, nargs, 6));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_get_bool(ctx, op, args, 2, "align_corners", &align));
  PK_TRY(pk_upsample_out(ctx, op, args, in, 1, 3, 4, &out, sizes, scales));
  if (out->numel == 0) return PTERA_OK;
  float sh = (float)pk_area_scale(in->sizes[2], sizes[2], align, scales[0]);
  float sw = (float)pk_area_scale(in->sizes[3], sizes[3], align, scales[1]);
  if (in->dtype == PTERA_DTYPE_DOUBLE)
    bilinear_f64(in, out, sh, sw, align);
  else
    bilinear_f32(in, out, sh, sw, align);
  return PTERA_OK;
}

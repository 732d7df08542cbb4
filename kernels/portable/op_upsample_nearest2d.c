/* aten::upsample_nearest2d.vec_out(Tensor input, SymInt[]? output_size,
 * float[]? scale_factors, *, Tensor(a!) out): [N,C,H,W] -> [N,C,OH,OW];
 * src = min(floor(dst * scale), in - 1) in float with scale = 1/scale_factor,
 * the factor being out/in for an output_size (ExecuTorch's arithmetic). */
#include "builtin.h"
#include "portable/util/pk.h"
#include "portable/util/upsample_io.h"
#include "portable/util/upsample_util.h"

static int64_t nearest_src(int64_t dst, int64_t in, float s) {
  int64_t v = (int64_t)floorf((float)dst * s);
  return v < in - 1 ? v : in - 1;
}

ptera_status pk_upsample_nearest2d_vec_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::upsample_nearest2d.vec_out";
  ptera_tensor *in, *out;
  int32_t sizes[4];
  double scales[2];
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "input", &in));
  PK_TRY(pk_upsample_out(ctx, op, args, in, 1, 2, 3, &out, sizes, scales));
  if (out->numel == 0) return PTERA_OK;
  size_t es = ptera_dtype_size(in->dtype);
  int64_t H = in->sizes[2], W = in->sizes[3];
  float sh = (float)pk_area_scale(H, sizes[2], false, scales[0]);
  float sw = (float)pk_area_scale(W, sizes[3], false, scales[1]);
  for (int64_t n = 0; n < sizes[0]; n++)
    for (int64_t c = 0; c < sizes[1]; c++)
      for (int64_t oh = 0; oh < sizes[2]; oh++) {
        int64_t ih = nearest_src(oh, H, sh);
        for (int64_t ow = 0; ow < sizes[3]; ow++) {
          int64_t iw = nearest_src(ow, W, sw);
          ptrdiff_t so = (ptrdiff_t)(n * in->strides[0] + c * in->strides[1] + ih * in->strides[2] +
                                     iw * in->strides[3]);
          ptrdiff_t oo = (ptrdiff_t)(n * out->strides[0] + c * out->strides[1] +
                                     oh * out->strides[2] + ow * out->strides[3]);
          memcpy((char *)out->data + oo * (ptrdiff_t)es, (const char *)in->data + so * (ptrdiff_t)es, es);
        }
      }
  return PTERA_OK;
}

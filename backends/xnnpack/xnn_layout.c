/* Float layout copies: NHWC <-> NCHW around the NCHW convolution kernels
 * (kernels/cpu/conv2d.h) that DepthwiseConv2d and ConvTranspose2d use, and
 * the zero-padded NHWC copy of an asymmetrically padded Conv2d input. */
#include "xnnpack/xnn.h"

void px_nhwc_to_nchw(const float *in, size_t n, size_t h, size_t w, size_t c, const size_t pad[4], float *out) {
  size_t ph = h + pad[0] + pad[1], pw = w + pad[2] + pad[3];
  for (size_t b = 0; b < n; b++) {
    const float *img = in + b * h * w * c;
    float *o = out + b * c * ph * pw;
    if (pad[0] || pad[1] || pad[2] || pad[3]) memset(o, 0, c * ph * pw * sizeof *o);
    for (size_t y = 0; y < h; y++)
      for (size_t ch = 0; ch < c; ch++) {
        float *orow = o + (ch * ph + y + pad[0]) * pw + pad[2];
        const float *src = img + y * w * c + ch;
        for (size_t x = 0; x < w; x++) orow[x] = src[x * c];
      }
  }
}

void px_nhwc_pad(const float *in, size_t n, size_t h, size_t w, size_t c, const size_t pad[4], float *out) {
  size_t ph = h + pad[0] + pad[1], pw = w + pad[2] + pad[3];
  for (size_t b = 0; b < n; b++) {
    const float *img = in + b * h * w * c;
    float *o = out + b * ph * pw * c;
    memset(o, 0, pad[0] * pw * c * sizeof *o);
    for (size_t y = 0; y < h; y++) {
      float *row = o + (y + pad[0]) * pw * c;
      memset(row, 0, pad[2] * c * sizeof *row);
      memcpy(row + pad[2] * c, img + y * w * c, w * c * sizeof *row);
      memset(row + (pad[2] + w) * c, 0, pad[3] * c * sizeof *row);
    }
    memset(o + (pad[0] + h) * pw * c, 0, pad[1] * pw * c * sizeof *o);
  }
}

void px_nchw_to_nhwc(const float *in, size_t n, size_t c, size_t h, size_t w, size_t oh, size_t ow, float *out) {
  for (size_t b = 0; b < n; b++) {
    const float *img = in + b * c * h * w;
    float *o = out + b * oh * ow * c;
    for (size_t y = 0; y < oh; y++)
      for (size_t ch = 0; ch < c; ch++) {
        const float *row = img + (ch * h + y) * w;
        float *dst = o + y * ow * c + ch;
        for (size_t x = 0; x < ow; x++) dst[x * c] = row[x];
      }
  }
}

bool px_f32_bytes4(size_t a, size_t b, size_t c, size_t d, size_t *out) {
  const size_t dims[4] = {a, b, c, d};
  size_t n;
  if (!px_nbytes(PF_XNN_DT_FP32, dims, 4, &n) || n > SIZE_MAX - 63) return false;
  *out = (n + 63) & ~(size_t)63;
  return true;
}

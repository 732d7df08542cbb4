/* Float layout copies: NHWC <-> NCHW around the NCHW convolution kernels
 * (kernels/cpu/conv2d.h) that DepthwiseConv2d and ConvTranspose2d use, and
 * the zero-padded NHWC copy of an asymmetrically padded Conv2d input. The
 * layout changes are 2-D transposes per row (kernels/cpu/transpose.h). */
#include "cpu/transpose.h"
#include "xnnpack/xnn.h"

typedef struct layout_job {
  const float *in;
  float *out;
  size_t c, h, w, oh, ow; /* to_nchw: h, w of the input, oh, ow padded; to_nhwc: the reverse */
  const size_t *pad;
} layout_job;

static size_t row_grain(size_t row) { return row && row < PX_ELEM_GRAIN ? PX_ELEM_GRAIN / row : 1; }

/* Input rows [begin, end) over all images, each to its c output rows. */
static void to_nchw_task(void *arg, size_t begin, size_t end) {
  const layout_job *j = arg;
  for (size_t r = begin; r < end; r++) {
    size_t b = r / j->h, y = r % j->h;
    const float *src = j->in + r * j->w * j->c;
    float *o = j->out + b * j->c * j->oh * j->ow + (y + j->pad[0]) * j->ow + j->pad[2];
    pk_x32_transpose(src, j->c, o, j->oh * j->ow, j->w, j->c);
  }
}

void px_nhwc_to_nchw(const float *in, size_t n, size_t h, size_t w, size_t c, const size_t pad[4], float *out,
                     ptera_kernel_ctx *ctx) {
  layout_job j = {in, out, c, h, w, h + pad[0] + pad[1], w + pad[2] + pad[3], pad};
  if (pad[0] || pad[1] || pad[2] || pad[3]) memset(out, 0, n * c * j.oh * j.ow * sizeof *out);
  ptera_kernel_parallel_for(ctx, n * h, row_grain(w * c), to_nchw_task, &j);
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

/* Output rows [begin, end) over all images, each from c input rows. */
static void to_nhwc_task(void *arg, size_t begin, size_t end) {
  const layout_job *j = arg;
  for (size_t r = begin; r < end; r++) {
    size_t b = r / j->oh, y = r % j->oh;
    const float *row = j->in + b * j->c * j->h * j->w + y * j->w;
    float *dst = j->out + r * j->ow * j->c;
    pk_x32_transpose(row, j->h * j->w, dst, j->c, j->c, j->ow);
  }
}

void px_nchw_to_nhwc(const float *in, size_t n, size_t c, size_t h, size_t w, size_t oh, size_t ow, float *out,
                     ptera_kernel_ctx *ctx) {
  static const size_t nopad[4] = {0, 0, 0, 0};
  layout_job j = {in, out, c, h, w, oh, ow, nopad};
  ptera_kernel_parallel_for(ctx, n * oh, row_grain(ow * c), to_nhwc_task, &j);
}

bool px_f32_bytes4(size_t a, size_t b, size_t c, size_t d, size_t *out) {
  const size_t dims[4] = {a, b, c, d};
  size_t n;
  if (!px_nbytes(PF_XNN_DT_FP32, dims, 4, &n) || n > SIZE_MAX - 63) return false;
  *out = (n + 63) & ~(size_t)63;
  return true;
}

/* NCHW depthwise through channels last (conv2d_dwcl.h). Workspace: one
 * image's input [H*W, C] and output [OH*OW, C], each 64-byte aligned. */
#include "cpu/conv2d_dwcl.h"

#include "cpu/conv2d_nhwc.h"
#include "cpu/conv2d_split.h"
#include "cpu/transpose.h"

#define DWCL_MAX_PIXELS 64 /* output planes up to 8x8 (at 14x14 the transposes cost what they save) */
#define DWCL_MIN_CHANNELS 16

static bool mul_ok(size_t a, size_t b, size_t *r) { return !__builtin_mul_overflow(a, b, r); }
static size_t align64(size_t x) { return (x + 63) & ~(size_t)63; }

static pk_conv2d_geom nhwc_of(const pk_conv2d_geom *g) {
  pk_conv2d_geom q = *g;
  q.layout = PK_CONV_NHWC;
  q.n = 1;
  return q;
}

bool pk_conv2d_dwcl_applies(const pk_conv2d_geom *g) {
  return g->layout == PK_CONV_NCHW && pk_conv2d_is_depthwise(g) && g->c_in >= DWCL_MIN_CHANNELS &&
         g->oh * g->ow <= DWCL_MAX_PIXELS;
}

/* A depthwise [C, 1, kh, kw] NCHW filter is the NHWC [C, kh, kw, 1] one. */
size_t pk_conv2d_dwcl_pack_size(const pk_conv2d_geom *g) {
  pk_conv2d_geom q = nhwc_of(g);
  return pk_conv2d_nhwc_pack_size(&q);
}

void pk_conv2d_dwcl_pack(const pk_conv2d_geom *g, const float *w, void *packed) {
  pk_conv2d_geom q = nhwc_of(g);
  pk_conv2d_nhwc_pack(&q, w, packed);
}

void pk_conv2d_dwcl_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n, const double *scale) {
  pk_conv2d_geom q = nhwc_of(g);
  pk_conv2d_nhwc_pack_scale(&q, packed, oc0, n, scale);
}

size_t pk_conv2d_dwcl_workspace(const pk_conv2d_geom *g) {
  size_t a, b;
  if (!mul_ok((size_t)(g->h * g->w), (size_t)g->c_in * sizeof(float), &a) ||
      !mul_ok((size_t)(g->oh * g->ow), (size_t)g->c_out * sizeof(float), &b) || a > SIZE_MAX / 4 ||
      b > SIZE_MAX / 4)
    return SIZE_MAX;
  return align64(a) + align64(b);
}

/* dst[p*C + c] = src[c*P + p] (to_nhwc) or the reverse, pixels [begin, end). */
typedef struct tr_job {
  const float *src;
  float *dst;
  size_t C, P;
  bool to_nhwc;
} tr_job;

static void tr_task(void *arg, size_t begin, size_t end) {
  const tr_job *j = arg;
  if (j->to_nhwc)
    pk_x32_transpose(j->src + begin, j->P, j->dst + begin * j->C, j->C, j->C, end - begin);
  else
    pk_x32_transpose(j->src + begin * j->C, j->C, j->dst + begin, j->P, end - begin, j->C);
}

void pk_conv2d_dwcl_run(const pk_conv2d_geom *g, const float *in, const void *packed, const float *bias,
                        float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx) {
  pk_conv2d_geom q = nhwc_of(g);
  size_t C = (size_t)g->c_in, HW = (size_t)(g->h * g->w), OHW = (size_t)(g->oh * g->ow);
  size_t nthreads = ptera_kernel_thread_count(ctx);
  float *x = ws, *y = (float *)((char *)ws + align64(HW * C * sizeof(float)));
  for (size_t n = 0; n < (size_t)g->n; n++) {
    tr_job tin = {in + n * C * HW, x, C, HW, true}, tout = {y, out + n * C * OHW, C, OHW, false};
    ptera_kernel_parallel_for(ctx, HW, conv_copy_grain(HW, C, nthreads), tr_task, &tin);
    pk_conv2d_nhwc_run(&q, x, packed, bias, y, min, max, NULL, ctx);
    ptera_kernel_parallel_for(ctx, OHW, conv_copy_grain(OHW, C, nthreads), tr_task, &tout);
  }
}

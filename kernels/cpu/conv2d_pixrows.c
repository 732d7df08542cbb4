/* Pixels-as-rows f32 convolution (conv2d_pixrows.h). Workspace: the
 * gathered input [K, P] (column k = (c, ky, kx) of A, pixels contiguous),
 * the product [P, C_out/g], then the GEMM's own workspace. */
#include "cpu/conv2d_pixrows.h"

#include <string.h>

#include "cpu/conv2d_split.h"
#include "cpu/gemm.h"
#include "cpu/isa.h"

#define PIXROWS_MAX_PIXELS 64
#define PIXROWS_MIN_COUT 32

static bool mul_ok(size_t a, size_t b, size_t *r) { return !__builtin_mul_overflow(a, b, r); }
static size_t align64(size_t x) { return (x + 63) & ~(size_t)63; }

static size_t kdim(const pk_conv2d_geom *g) { return (size_t)pk_conv2d_cin_g(g) * (size_t)(g->kh * g->kw); }

static bool identity(const pk_conv2d_geom *g) {
  return g->kh == 1 && g->kw == 1 && g->stride[0] == 1 && g->stride[1] == 1 && g->pad[0] == 0 && g->pad[1] == 0;
}

bool pk_conv2d_pixrows_applies(const pk_conv2d_geom *g) {
  return g->layout == PK_CONV_NCHW && !g->transposed && g->oh * g->ow <= PIXROWS_MAX_PIXELS &&
         pk_conv2d_cout_g(g) >= PIXROWS_MIN_COUT && pk_conv2d_cin_g(g) > 1;
}

/* Bytes between two groups' filters packed for isa. */
static size_t pack_stride(const pk_conv2d_geom *g, pk_isa isa) {
  return align64(pk_gemm_f32_pack_b_size_isa(kdim(g), (size_t)pk_conv2d_cout_g(g), isa));
}

size_t pk_conv2d_pixrows_pack_size(const pk_conv2d_geom *g) {
  size_t total;
  return mul_ok(pack_stride(g, pk_isa_selected()), (size_t)g->groups, &total) ? total : SIZE_MAX;
}

void pk_conv2d_pixrows_pack(const pk_conv2d_geom *g, const float *w, void *packed) {
  size_t K = kdim(g), cout_g = (size_t)pk_conv2d_cout_g(g), stride = pack_stride(g, pk_isa_selected());
  for (size_t grp = 0; grp < (size_t)g->groups; grp++) /* B(k, o) = w[grp*cout_g + o][k] */
    pk_gemm_f32_pack_b(K, cout_g, w + grp * cout_g * K, 1, K, (char *)packed + grp * stride);
}

void pk_conv2d_pixrows_pack_scale(const pk_conv2d_geom *g, void *packed, size_t oc0, size_t n,
                                  const double *scale) {
  conv_scale_groups(packed, pack_stride(g, pk_gemm_f32_packed_isa(packed)), (size_t)pk_conv2d_cout_g(g), oc0, n,
                    scale);
}

/* Bytes of the gathered input and of the product (each 64-byte aligned). */
static bool parts(const pk_conv2d_geom *g, size_t *gather, size_t *prod) {
  size_t P = (size_t)(g->oh * g->ow);
  if (!mul_ok(kdim(g), P * sizeof(float), gather) || !mul_ok(P * sizeof(float), (size_t)pk_conv2d_cout_g(g), prod) ||
      *gather > SIZE_MAX - 64 || *prod > SIZE_MAX - 64)
    return false;
  *gather = identity(g) ? 0 : align64(*gather);
  *prod = align64(*prod);
  return true;
}

size_t pk_conv2d_pixrows_workspace(const pk_conv2d_geom *g, size_t nthreads) {
  size_t gather, prod, gws = 0, total;
  if (!parts(g, &gather, &prod)) return SIZE_MAX;
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) { /* for whichever ISA the filters were packed under */
    size_t b = pk_gemm_f32_workspace_b_packed((size_t)(g->oh * g->ow), (size_t)pk_conv2d_cout_g(g), kdim(g), false,
                                              (pk_isa)isa, nthreads ? nthreads : 1);
    gws = b > gws ? b : gws;
  }
  if (__builtin_add_overflow(gather, prod, &total) || __builtin_add_overflow(total, gws, &total)) return SIZE_MAX;
  return total;
}

/* dst[(c, ky, kx)][p] for channels [c0, c1) of the group from the image's planes at src. */
static void gather(const pk_conv2d_geom *g, const float *src, size_t c0, size_t c1, float *dst) {
  size_t H = (size_t)g->h, W = (size_t)g->w, OH = (size_t)g->oh, OW = (size_t)g->ow;
  dst += c0 * (size_t)(g->kh * g->kw) * OH * OW;
  for (size_t c = c0; c < c1; c++)
    for (size_t ky = 0; ky < (size_t)g->kh; ky++)
      for (size_t kx = 0; kx < (size_t)g->kw; kx++)
        for (size_t oy = 0; oy < OH; oy++) {
          ptrdiff_t iy = (ptrdiff_t)(oy * (size_t)g->stride[0] + ky * (size_t)g->dil[0]) - (ptrdiff_t)g->pad[0];
          for (size_t ox = 0; ox < OW; ox++, dst++) {
            ptrdiff_t ix = (ptrdiff_t)(ox * (size_t)g->stride[1] + kx * (size_t)g->dil[1]) - (ptrdiff_t)g->pad[1];
            *dst = iy >= 0 && iy < (ptrdiff_t)H && ix >= 0 && ix < (ptrdiff_t)W
                       ? src[(size_t)c * H * W + (size_t)iy * W + (size_t)ix]
                       : 0.0f;
          }
        }
}

/* One image and group: the gather (over input channels) and the product's
 * transpose into the output (over output channels) split over the threads
 * like the product itself. */
typedef struct pix_job {
  const pk_conv2d_geom *g;
  const float *src, *c;
  float *a, *o;
} pix_job;

static void gather_task(void *arg, size_t begin, size_t end) {
  const pix_job *j = arg;
  gather(j->g, j->src, begin, end, j->a);
}

static void scatter_task(void *arg, size_t begin, size_t end) {
  const pix_job *j = arg;
  size_t P = (size_t)(j->g->oh * j->g->ow), cout_g = (size_t)pk_conv2d_cout_g(j->g);
  for (size_t oc = begin; oc < end; oc++)
    for (size_t p = 0; p < P; p++) j->o[oc * P + p] = j->c[p * cout_g + oc];
}

void pk_conv2d_pixrows_run(const pk_conv2d_geom *g, const float *in, const void *packed, const float *bias,
                           float *out, float min, float max, void *ws, ptera_kernel_ctx *ctx) {
  size_t gbytes, pbytes, P = (size_t)(g->oh * g->ow), K = kdim(g);
  size_t cin_g = (size_t)pk_conv2d_cin_g(g), cout_g = (size_t)pk_conv2d_cout_g(g), HW = (size_t)(g->h * g->w);
  if (!parts(g, &gbytes, &pbytes)) return;
  size_t stride = pack_stride(g, pk_gemm_f32_packed_isa(packed)), nthreads = ptera_kernel_thread_count(ctx);
  size_t cgrain = conv_copy_grain(cin_g, K / cin_g * P, nthreads), ograin = conv_copy_grain(cout_g, P, nthreads);
  float *a = (float *)ws, *c = (float *)((char *)ws + gbytes);
  void *gws = (char *)ws + gbytes + pbytes;
  for (size_t n = 0; n < (size_t)g->n; n++)
    for (size_t grp = 0; grp < (size_t)g->groups; grp++) {
      pix_job j = {g, in + (n * (size_t)g->c_in + grp * cin_g) * HW, c, a,
                   out + (n * (size_t)g->c_out + grp * cout_g) * P};
      const float *ap = j.src; /* a 1x1 unit-stride unpadded convolution reads the planes as they are */
      if (!identity(g)) {
        ptera_kernel_parallel_for(ctx, cin_g, cgrain, gather_task, &j);
        ap = a;
      }
      pk_gemm_f32_args ga = {P, cout_g, K, {ap, 1, P, NULL}, {NULL, 0, 0, (const char *)packed + grp * stride},
                             NULL, bias ? bias + grp * cout_g : NULL, c, cout_g, min, max};
      pk_gemm_f32_run(&ga, gws, ctx);
      ptera_kernel_parallel_for(ctx, cout_g, ograin, scatter_task, &j);
    }
}

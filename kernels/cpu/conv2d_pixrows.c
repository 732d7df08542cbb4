/* Pixels-as-rows f32 convolution (conv2d_pixrows.h). Workspace: A, the
 * input gathered straight into the GEMM's packed-A panels (MR pixels a
 * panel, column k = (c, ky, kx), for the ISA the filters were packed for),
 * then the product [P, C_out/g]. With both operands packed the GEMM packs
 * nothing itself; gathering into a [K, P] matrix that every thread's GEMM
 * then packed again cost ResNet-18's 3x3 512 @7 a tenth of its time on one
 * thread and more on two. A 1x1 unit-stride unpadded convolution's panels
 * are runs of its input planes, copied as they lie (gather_planes). */
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

/* Bytes of the gathered input packed for the widest A panel of any ISA,
 * and of the product (each 64-byte aligned). */
static bool parts(const pk_conv2d_geom *g, size_t *gather, size_t *prod) {
  size_t P = (size_t)(g->oh * g->ow), K = kdim(g);
  *gather = 0;
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) { /* for whichever ISA the filters were packed under */
    size_t b = pk_gemm_f32_pack_a_size_isa(P, K, (pk_isa)isa);
    *gather = b > *gather ? b : *gather;
  }
  if (!mul_ok(P * sizeof(float), (size_t)pk_conv2d_cout_g(g), prod) || *gather > SIZE_MAX - 64 ||
      *prod > SIZE_MAX - 64)
    return false;
  *gather = align64(*gather);
  *prod = align64(*prod);
  return true;
}

size_t pk_conv2d_pixrows_workspace(const pk_conv2d_geom *g, size_t nthreads) {
  size_t gather, prod, total;
  (void)nthreads; /* the product packs nothing: one workspace for any thread count */
  if (!parts(g, &gather, &prod) || __builtin_add_overflow(gather, prod, &total)) return SIZE_MAX;
  return total;
}

/* Columns k = (c, ky, kx) of A for channels [c0, c1) of the group from the
 * image's planes at src, into panels of MR pixels (A packed: panel q,
 * column k, lane i at a[(q*K + k)*MR + i], zero past the last pixel). Per
 * tap, where each pixel reads in the plane (or -1: padding) is found once;
 * the lanes then load from there or take zero, without branches. */
static void gather(const pk_conv2d_geom *g, const float *src, size_t c0, size_t c1, size_t MR, float *a) {
  size_t H = (size_t)g->h, W = (size_t)g->w, OW = (size_t)g->ow, P = (size_t)(g->oh * g->ow);
  size_t taps = (size_t)(g->kh * g->kw), K = kdim(g), panels = (P + MR - 1) / MR;
  ptrdiff_t at[PIXROWS_MAX_PIXELS];
  for (size_t tap = 0; tap < taps; tap++) {
    size_t ky = tap / (size_t)g->kw, kx = tap % (size_t)g->kw;
    for (size_t p = 0; p < P; p++) {
      ptrdiff_t iy = (ptrdiff_t)(p / OW * (size_t)g->stride[0] + ky * (size_t)g->dil[0]) - (ptrdiff_t)g->pad[0];
      ptrdiff_t ix = (ptrdiff_t)(p % OW * (size_t)g->stride[1] + kx * (size_t)g->dil[1]) - (ptrdiff_t)g->pad[1];
      at[p] = iy >= 0 && iy < (ptrdiff_t)H && ix >= 0 && ix < (ptrdiff_t)W ? iy * (ptrdiff_t)W + ix : -1;
    }
    for (size_t c = c0; c < c1; c++) {
      const float *plane = src + c * H * W;
      float *d = a + (c * taps + tap) * MR;
      for (size_t q = 0; q < panels; q++, d += K * MR)
        for (size_t i = 0; i < MR; i++) {
          ptrdiff_t j = q * MR + i < P ? at[q * MR + i] : -1;
          float v = plane[j < 0 ? 0 : j];
          d[i] = j < 0 ? 0.0f : v;
        }
    }
  }
}

/* gather for a 1x1 unit-stride unpadded convolution: a panel's lanes are
 * consecutive pixels of one plane, copied as they lie. */
static void gather_planes(const pk_conv2d_geom *g, const float *src, size_t c0, size_t c1, size_t MR, float *a) {
  size_t P = (size_t)(g->oh * g->ow), K = kdim(g), panels = (P + MR - 1) / MR;
  for (size_t c = c0; c < c1; c++) {
    const float *plane = src + c * P;
    float *d = a + c * MR;
    for (size_t q = 0; q < panels; q++, d += K * MR) {
      size_t p0 = q * MR, w = P - p0 < MR ? P - p0 : MR;
      for (size_t i = 0; i < w; i++) d[i] = plane[p0 + i];
      for (size_t i = w; i < MR; i++) d[i] = 0.0f;
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
  size_t mr;
} pix_job;

static void gather_task(void *arg, size_t begin, size_t end) {
  const pix_job *j = arg;
  if (identity(j->g))
    gather_planes(j->g, j->src, begin, end, j->mr, j->a);
  else
    gather(j->g, j->src, begin, end, j->mr, j->a);
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
  pk_isa isa = pk_gemm_f32_packed_isa(packed);
  size_t stride = pack_stride(g, isa), nthreads = ptera_kernel_thread_count(ctx), MR = pk_gemm_f32_a_panel(isa);
  size_t cgrain = conv_copy_grain(cin_g, K / cin_g * P, nthreads), ograin = conv_copy_grain(cout_g, P, nthreads);
  float *c = (float *)((char *)ws + gbytes);
  for (size_t n = 0; n < (size_t)g->n; n++)
    for (size_t grp = 0; grp < (size_t)g->groups; grp++) {
      pix_job j = {g, in + (n * (size_t)g->c_in + grp * cin_g) * HW, c, pk_gemm_f32_pack_a_start(ws, P, K, isa),
                   out + (n * (size_t)g->c_out + grp * cout_g) * P, MR};
      ptera_kernel_parallel_for(ctx, cin_g, cgrain, gather_task, &j);
      pk_gemm_f32_args ga = {P, cout_g, K, {NULL, 0, 0, ws}, {NULL, 0, 0, (const char *)packed + grp * stride},
                             NULL, bias ? bias + grp * cout_g : NULL, c, cout_g, min, max, false};
      pk_gemm_f32_run(&ga, NULL, ctx); /* both operands packed: in shares claimed one at a time */
      ptera_kernel_parallel_for(ctx, cout_g, ograin, scatter_task, &j);
    }
}

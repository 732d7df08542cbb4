/* conv_bench: the f32 convolution fast path (kernels/cpu/conv2d.h) layer by
 * layer on the convolutions of ResNet-18 and MobileNetV2 at 224 x 224
 * (shapes; each listed once with how many times the model runs it), filters
 * packed ahead as at method load. Per layer: the median wall time of RUNS
 * calls and, on one thread, the least CPU time of the calling thread (on a
 * shared host the latter is what is left of the layer's own cost when other
 * processes take the cores), GFLOP/s from it, and the sum over the model
 * weighted by the repeat counts.
 *   conv_bench [THREADS] [FILTER]   FILTER: only layers whose name has it.
 * PTERA_ISA picks the ISA as for the library. Not a test: nothing is
 * checked here (test_conv_fast checks the results). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/conv2d.h"
#include "cpu/isa.h"
#include "ptera/threadpool.h"
#include "runtime/kernel_ctx.h"

enum { RUNS = 15 };

typedef struct layer {
  const char *name;
  int cin, cout, groups, k, s, p, h, count;
} layer;

static const layer LAYERS[] = {
    {"resnet18 stem 7x7 s2", 3, 64, 1, 7, 2, 3, 224, 1},
    {"resnet18 3x3 64 @56", 64, 64, 1, 3, 1, 1, 56, 4},
    {"resnet18 3x3 s2 64-128", 64, 128, 1, 3, 2, 1, 56, 1},
    {"resnet18 3x3 128 @28", 128, 128, 1, 3, 1, 1, 28, 3},
    {"resnet18 1x1 s2 64-128", 64, 128, 1, 1, 2, 0, 56, 1},
    {"resnet18 3x3 s2 128-256", 128, 256, 1, 3, 2, 1, 28, 1},
    {"resnet18 3x3 256 @14", 256, 256, 1, 3, 1, 1, 14, 3},
    {"resnet18 1x1 s2 128-256", 128, 256, 1, 1, 2, 0, 28, 1},
    {"resnet18 3x3 s2 256-512", 256, 512, 1, 3, 2, 1, 14, 1},
    {"resnet18 3x3 512 @7", 512, 512, 1, 3, 1, 1, 7, 3},
    {"resnet18 1x1 s2 256-512", 256, 512, 1, 1, 2, 0, 14, 1},
    {"mobilenetv2 stem 3x3 s2", 3, 32, 1, 3, 2, 1, 224, 1},
    {"mobilenetv2 dw 32 @112", 32, 32, 32, 3, 1, 1, 112, 1},
    {"mobilenetv2 1x1 32-16 @112", 32, 16, 1, 1, 1, 0, 112, 1},
    {"mobilenetv2 1x1 16-96 @112", 16, 96, 1, 1, 1, 0, 112, 1},
    {"mobilenetv2 dw s2 96 @112", 96, 96, 96, 3, 2, 1, 112, 1},
    {"mobilenetv2 1x1 96-24 @56", 96, 24, 1, 1, 1, 0, 56, 1},
    {"mobilenetv2 1x1 24-144 @56", 24, 144, 1, 1, 1, 0, 56, 2},
    {"mobilenetv2 dw 144 @56", 144, 144, 144, 3, 1, 1, 56, 1},
    {"mobilenetv2 1x1 144-24 @56", 144, 24, 1, 1, 1, 0, 56, 1},
    {"mobilenetv2 dw s2 144 @56", 144, 144, 144, 3, 2, 1, 56, 1},
    {"mobilenetv2 1x1 144-32 @28", 144, 32, 1, 1, 1, 0, 28, 1},
    {"mobilenetv2 1x1 32-192 @28", 32, 192, 1, 1, 1, 0, 28, 3},
    {"mobilenetv2 dw 192 @28", 192, 192, 192, 3, 1, 1, 28, 2},
    {"mobilenetv2 1x1 192-32 @28", 192, 32, 1, 1, 1, 0, 28, 2},
    {"mobilenetv2 dw s2 192 @28", 192, 192, 192, 3, 2, 1, 28, 1},
    {"mobilenetv2 1x1 192-64 @14", 192, 64, 1, 1, 1, 0, 14, 1},
    {"mobilenetv2 1x1 64-384 @14", 64, 384, 1, 1, 1, 0, 14, 4},
    {"mobilenetv2 dw 384 @14", 384, 384, 384, 3, 1, 1, 14, 4},
    {"mobilenetv2 1x1 384-64 @14", 384, 64, 1, 1, 1, 0, 14, 3},
    {"mobilenetv2 1x1 384-96 @14", 384, 96, 1, 1, 1, 0, 14, 1},
    {"mobilenetv2 1x1 96-576 @14", 96, 576, 1, 1, 1, 0, 14, 3},
    {"mobilenetv2 dw 576 @14", 576, 576, 576, 3, 1, 1, 14, 2},
    {"mobilenetv2 1x1 576-96 @14", 576, 96, 1, 1, 1, 0, 14, 2},
    {"mobilenetv2 dw s2 576 @14", 576, 576, 576, 3, 2, 1, 14, 1},
    {"mobilenetv2 1x1 576-160 @7", 576, 160, 1, 1, 1, 0, 7, 1},
    {"mobilenetv2 1x1 160-960 @7", 160, 960, 1, 1, 1, 0, 7, 3},
    {"mobilenetv2 dw 960 @7", 960, 960, 960, 3, 1, 1, 7, 3},
    {"mobilenetv2 1x1 960-160 @7", 960, 160, 1, 1, 1, 0, 7, 2},
    {"mobilenetv2 1x1 960-320 @7", 960, 320, 1, 1, 1, 0, 7, 1},
    {"mobilenetv2 1x1 320-1280 @7", 320, 1280, 1, 1, 1, 0, 7, 1},
};

static double seconds(clockid_t clk) {
  struct timespec t;
  clock_gettime(clk, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void *alloc64(size_t n) { return aligned_alloc(64, (n + 63) / 64 * 64 + 64); }

int main(int argc, char **argv) {
  size_t threads = argc > 1 ? (size_t)atoi(argv[1]) : 1;
  const char *filter = argc > 2 ? argv[2] : "";
  ptera_threadpool *pool = NULL;
  if (threads > 1 && ptera_threadpool_create(threads, NULL, &pool) != PTERA_OK) return 1;
  ptera_kernel_ctx ctx;
  pt_err err;
  memset(&err, 0, sizeof err);
  pr_kernel_ctx_init(&ctx, "aten::convolution.out", &err, NULL, 0);
  ctx.pool = pool;
  printf("conv_bench: %s, %zu thread(s)\n", pk_isa_name(pk_isa_selected()), ptera_threadpool_size(pool));
  printf("%-30s %5s %10s %10s %9s\n", "layer", "x", "wall ms", "cpu ms", "GFLOP/s");
  double sum_wall[2] = {0, 0}, sum_cpu[2] = {0, 0};
  for (size_t li = 0; li < sizeof LAYERS / sizeof LAYERS[0]; li++) {
    const layer *l = &LAYERS[li];
    if (!strstr(l->name, filter)) continue;
    pk_conv2d_geom g = {.n = 1, .c_in = l->cin, .h = l->h, .w = l->h, .c_out = l->cout, .groups = l->groups,
                        .kh = l->k, .kw = l->k, .stride = {l->s, l->s}, .pad = {l->p, l->p}, .dil = {1, 1}};
    char msg[160];
    if (pk_conv2d_geom_init(&g, msg, sizeof msg) != PTERA_OK) {
      printf("%s: %s\n", l->name, msg);
      return 1;
    }
    size_t nin = (size_t)(g.c_in * g.h * g.w), nout = (size_t)(g.c_out * g.oh * g.ow);
    size_t nw = (size_t)(g.c_out * pk_conv2d_cin_g(&g) * g.kh * g.kw);
    float *in = alloc64(nin * 4), *w = alloc64(nw * 4), *b = alloc64((size_t)g.c_out * 4), *out = alloc64(nout * 4);
    for (size_t i = 0; i < nin; i++) in[i] = (float)(i % 7) * 0.25f - 0.75f;
    for (size_t i = 0; i < nw; i++) w[i] = (float)(i % 5) * 0.125f - 0.25f;
    for (int64_t i = 0; i < g.c_out; i++) b[i] = 0.5f;
    size_t pbytes = pk_conv2d_f32_pack_size(&g), wbytes = pk_conv2d_f32_workspace(&g, ptera_threadpool_size(pool));
    void *packed = pbytes ? alloc64(pbytes) : NULL, *ws = alloc64(wbytes);
    if (packed) pk_conv2d_f32_pack(&g, w, packed);
    double wall[RUNS], cpu = INFINITY;
    for (int r = 0; r < RUNS + 2; r++) { /* two warm-up calls */
      double w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_THREAD_CPUTIME_ID);
      pk_conv2d_f32(&g, in, w, packed, b, out, -INFINITY, INFINITY, ws, &ctx);
      double c1 = seconds(CLOCK_THREAD_CPUTIME_ID), w1 = seconds(CLOCK_MONOTONIC);
      if (r >= 2) {
        wall[r - 2] = w1 - w0;
        if (c1 - c0 < cpu) cpu = c1 - c0;
      }
    }
    qsort(wall, RUNS, sizeof wall[0], cmp_double);
    double flop = 2.0 * (double)nout * (double)(pk_conv2d_cin_g(&g) * g.kh * g.kw);
    double best = pool ? wall[RUNS / 2] : cpu;
    printf("%-30s %5d %10.3f %10.3f %9.1f\n", l->name, l->count, wall[RUNS / 2] * 1e3, pool ? NAN : cpu * 1e3,
           flop / best * 1e-9);
    int m = l->name[0] == 'm';
    sum_wall[m] += wall[RUNS / 2] * l->count;
    sum_cpu[m] += cpu * l->count;
    free(in), free(w), free(b), free(out), free(packed), free(ws);
  }
  printf("sum over ResNet-18: wall %.2f ms, cpu %.2f ms; MobileNetV2: wall %.2f ms, cpu %.2f ms\n",
         sum_wall[0] * 1e3, pool ? NAN : sum_cpu[0] * 1e3, sum_wall[1] * 1e3, pool ? NAN : sum_cpu[1] * 1e3);
  ptera_threadpool_destroy(pool);
  return 0;
}

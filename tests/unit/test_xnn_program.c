/* An XNNPACK-delegated program end to end: a .pte whose forward is one
 * DelegateCall (compiler/emit_pte.c delegates, blob from emit_xnn.c) is
 * loaded and run by the runtime, on the calling thread and on a 2-thread
 * pool. The delegate's scratch comes from the method's temp arena (sized
 * from what init asked for; too small an explicit temp_size fails at
 * create). Graphs: FullyConnected 33x40 -> 24 with bias and clamp, and a
 * 3x3 Conv2d with padding on NHWC; references are double-precision loops.
 * A chain of elementwise nodes checks the internal values' shared buffers:
 * a Copy's output is its input's bytes, so the input lives as long as the
 * Copy's readers, and the block is smaller than one buffer per value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit_pte.h"
#include "emit_util.h"
#include "emit_xnn.h"
#include "ptera/ptera.h"
#include "xnn_program.h"

static float rndf(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)(*s >> 8) / 16777216.0f * 2.0f - 1.0f;
}

static void fill(float *p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; i++) p[i] = rndf(&seed);
}

/* Runs file with x and compares output 0 with want (n floats, tolerance
 * relative to the largest |want|) under the given options. */
static void run(const uint8_t *file, size_t size, const ptera_method_options *o, const float *x, size_t nx,
                const float *want, size_t n) {
  ptera_program *prog = eu_load(file, size);
  if (!prog) return;
  ptera_method *m = NULL;
  ptera_status st = ptera_method_create(prog, "forward", o, &m);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) fprintf(stderr, "create: %s\n", m ? ptera_method_errmsg(m) : "");
  const ptera_value *iv = st == PTERA_OK ? ptera_method_input(m, 0) : NULL;
  if (iv) {
    const ptera_tensor *t = iv->u.tensor;
    CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, t->dim, t->sizes, x, nx * 4) == PTERA_OK);
    for (int rep = 0; rep < 2; rep++) {
      st = ptera_method_execute(m);
      CHECK(st == PTERA_OK);
      if (st != PTERA_OK) fprintf(stderr, "execute: %s\n", ptera_method_errmsg(m));
    }
    const ptera_value *ov = ptera_method_output(m, 0);
    CHECK(ov && ov->u.tensor->numel == n);
    if (ov && ov->u.tensor->numel == n) {
      const float *y = ov->u.tensor->data;
      double big = 0, worst = 0;
      for (size_t i = 0; i < n; i++) big = fmax(big, fabs(want[i]));
      for (size_t i = 0; i < n; i++) worst = fmax(worst, fabs((double)y[i] - want[i]));
      CHECK(worst <= 1e-5 * (big > 1 ? big : 1));
    }
  }
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
}

static void runs(const uint8_t *file, size_t size, const float *x, size_t nx, const float *want, size_t n) {
  run(file, size, NULL, x, nx, want, n);
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  ptera_method_options o = PTERA_METHOD_OPTIONS_INIT;
  o.threadpool = pool;
  run(file, size, &o, x, nx, want, n);
  ptera_threadpool_destroy(pool);
}

static void test_fc(void) {
  enum { M = 33, K = 40, N = 24 };
  static float x[M * K], w[N * K], b[N], want[M * N];
  fill(x, M * K, 1);
  fill(w, N * K, 2);
  fill(b, N, 3);
  for (int i = 0; i < M; i++)
    for (int o = 0; o < N; o++) {
      double acc = b[o];
      for (int k = 0; k < K; k++) acc += (double)x[i * K + k] * w[o * K + k];
      want[i * N + o] = (float)fmin(fmax(acc, -2.0), 2.5);
    }
  pc_xnn_value_desc v[4] = {xp_f32_value(1, 0, 2, (const uint32_t[]){M, K}, NULL, 0),
                            xp_f32_value(0, 0, 2, (const uint32_t[]){N, K}, w, N * K),
                            xp_f32_value(0, 0, 1, (const uint32_t[]){N}, b, N),
                            xp_f32_value(2, 1, 2, (const uint32_t[]){M, N}, NULL, 0)};
  pc_xnn_node_desc n = xp_node(PF_XNN_FULLY_CONNECTED);
  n.has_min_max = true;
  n.out_min = -2.0f;
  n.out_max = 2.5f;
  uint8_t *blob;
  size_t bsize, size;
  CHECK(pc_xnn_emit(v, 4, &n, 1, 2, NULL, &blob, &bsize) == PTERA_OK);
  uint8_t *file = NULL;
  pt_err err;
  CHECK(xp_delegated_pte(blob, bsize, 2, (const int32_t[]){M, K}, (const int32_t[]){M, N},
                         &file, &size, &err) == PTERA_OK);
  if (file) runs(file, size, x, M * K, want, M * N);
  pt_free(NULL, file);
  pt_free(NULL, blob);
}

static void test_conv(void) {
  enum { H = 9, W = 11, C = 5, O = 7 };
  static float x[H * W * C], w[O * 9 * C], b[O], want[H * W * O];
  fill(x, H * W * C, 4);
  fill(w, O * 9 * C, 5);
  fill(b, O, 6);
  for (int y = 0; y < H; y++)
    for (int xx = 0; xx < W; xx++)
      for (int o = 0; o < O; o++) {
        double acc = b[o];
        for (int ky = 0; ky < 3; ky++)
          for (int kx = 0; kx < 3; kx++) {
            int iy = y + ky - 1, ix = xx + kx - 1;
            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
            for (int c = 0; c < C; c++) acc += (double)x[(iy * W + ix) * C + c] * w[((o * 3 + ky) * 3 + kx) * C + c];
          }
        want[(y * W + xx) * O + o] = (float)acc;
      }
  pc_xnn_value_desc v[4] = {xp_f32_value(1, 0, 4, (const uint32_t[]){1, H, W, C}, NULL, 0),
                            xp_f32_value(0, 0, 4, (const uint32_t[]){O, 3, 3, C}, w, O * 9 * C),
                            xp_f32_value(0, 0, 1, (const uint32_t[]){O}, b, O),
                            xp_f32_value(2, 1, 4, (const uint32_t[]){1, H, W, O}, NULL, 0)};
  pc_xnn_node_desc n = xp_node(PF_XNN_CONV2D);
  const uint32_t p[13] = {1, 1, 1, 1, 3, 3, 1, 1, 1, 1, C, O, 1};
  memcpy(n.p, p, sizeof p);
  uint8_t *blob;
  size_t bsize, size;
  CHECK(pc_xnn_emit(v, 4, &n, 1, 2, NULL, &blob, &bsize) == PTERA_OK);
  uint8_t *file = NULL;
  pt_err err;
  CHECK(xp_delegated_pte(blob, bsize, 4, (const int32_t[]){1, H, W, C}, (const int32_t[]){1, H, W, O},
                         &file, &size, &err) == PTERA_OK);
  if (file) {
    runs(file, size, x, H * W * C, want, H * W * O);
    /* an explicit temp arena smaller than the delegate's scratch fails at create */
    ptera_program *prog = eu_load(file, size);
    ptera_method_options o = PTERA_METHOD_OPTIONS_INIT;
    o.temp_size = 64;
    ptera_method *m = NULL;
    CHECK(prog && ptera_method_create(prog, "forward", &o, &m) == PTERA_OUT_OF_RESOURCES);
    CHECK(m && strstr(ptera_method_errmsg(m), "temp_size") != NULL);
    ptera_method_destroy(m);
    ptera_program_destroy(prog);
  }
  pt_free(NULL, file);
  pt_free(NULL, blob);
}

/* x: a = -x; r = Copy(a) (r is a's bytes); b = |x|; c = r + b; d = -c;
 * y = d * x = (x - |x|) * x. b is written while r is still to be read. */
static void test_shared_buffers(void) {
  enum { N = 4096 };
  static float x[N], want[N];
  fill(x, N, 7);
  for (int i = 0; i < N; i++) want[i] = (x[i] - fabsf(x[i])) * x[i];
  const uint32_t dims[2] = {64, 64};
  pc_xnn_value_desc v[7];
  v[0] = xp_f32_value(1, 0, 2, dims, NULL, 0);
  for (int i = 1; i < 6; i++) v[i] = xp_f32_value(0, 0, 2, dims, NULL, 0); /* a r b c d */
  v[6] = xp_f32_value(2, 1, 2, dims, NULL, 0);
  static const struct { uint8_t kind; uint32_t in0, in1, out; } chain[6] = {
      {PF_XNN_NEGATE, 0, 0, 1}, {PF_XNN_COPY, 1, 0, 2}, {PF_XNN_ABS, 0, 0, 3},
      {PF_XNN_ADD, 2, 3, 4},    {PF_XNN_NEGATE, 4, 0, 5}, {PF_XNN_MULTIPLY, 5, 0, 6}};
  pc_xnn_node_desc n[6];
  for (int i = 0; i < 6; i++) {
    n[i] = xp_node(chain[i].kind);
    n[i].in[0] = chain[i].in0;
    n[i].in[1] = chain[i].in1;
    n[i].out[0] = chain[i].out;
  }
  uint8_t *blob;
  size_t bsize, size;
  CHECK(pc_xnn_emit(v, 7, n, 6, 2, NULL, &blob, &bsize) == PTERA_OK);
  uint8_t *file = NULL;
  pt_err err;
  CHECK(xp_delegated_pte(blob, bsize, 2, (const int32_t[]){64, 64}, (const int32_t[]){64, 64}, &file, &size,
                         &err) == PTERA_OK);
  if (file) {
    runs(file, size, x, N, want, N);
    /* a/r, b and c live at once (node 3); d reuses a's bytes: 3 buffers, not 5 */
    ptera_program *prog = eu_load(file, size);
    ptera_method *m = NULL;
    ptera_method_memory mem = PTERA_METHOD_MEMORY_INIT;
    CHECK(prog && ptera_method_create(prog, "forward", NULL, &m) == PTERA_OK);
    CHECK(m && ptera_method_get_memory(m, &mem) == PTERA_OK);
    CHECK(mem.packed_bytes >= 3 * N * 4 && mem.packed_bytes < 4 * N * 4);
    if (mem.packed_bytes >= 4 * N * 4) fprintf(stderr, "shared buffers: %zu bytes\n", (size_t)mem.packed_bytes);
    ptera_method_destroy(m);
    ptera_program_destroy(prog);
  }
  pt_free(NULL, file);
  pt_free(NULL, blob);
}

int main(void) {
  test_fc();
  test_shared_buffers();
  test_conv();
  return check_summary("xnn_program");
}

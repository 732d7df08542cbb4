/* Writes the XNNPACK-delegated halves of the delegate-vs-portable speed
 * comparison (bench/xnn_speed.sh): OUT_DIR/fc_xnn.pte, one FullyConnected
 * x[1024, 1024] · W[1024, 1024]^T + b, and OUT_DIR/conv_xnn.pte, one Conv2d
 * 3x3, 64 -> 64 channels, padding 1, on a 1x56x56x64 NHWC input. Each is a
 * method "forward" whose only instruction is a DelegateCall of
 * XnnpackBackend over planned input and output tensors; the blobs come from
 * the XNNGraph writer (compiler/emit_xnn.c). Weights are seeded uniform
 * values in [-0.05, 0.05).
 *
 * Usage: xnn_speed_gen OUT_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xnn_program.h"

static uint32_t g_seed = 20261202u;

static float *uniform(size_t n) {
  float *p = malloc(n * sizeof *p);
  for (size_t i = 0; p && i < n; i++) {
    g_seed = g_seed * 1664525u + 1013904223u;
    p[i] = ((float)(g_seed >> 8) / 16777216.0f - 0.5f) * 0.1f;
  }
  return p;
}

/* A program whose forward runs blob on input x and output y (shapes xs, ys). */
static int write_pte(const char *path, const uint8_t *blob, size_t size, const int32_t *xs, const int32_t *ys,
                     uint8_t dim) {
  uint8_t *out;
  size_t out_size;
  pt_err err;
  if (xp_delegated_pte(blob, size, dim, xs, ys, &out, &out_size, &err) != PTERA_OK) {
    fprintf(stderr, "xnn_speed_gen: %s: %s\n", path, err.msg);
    return 1;
  }
  FILE *f = fopen(path, "wb");
  int bad = !f || fwrite(out, 1, out_size, f) != out_size;
  if (f && fclose(f)) bad = 1;
  pt_free(NULL, out);
  if (bad) fprintf(stderr, "xnn_speed_gen: cannot write %s\n", path);
  return bad;
}

static int emit(const char *path, pc_xnn_value_desc *v, uint32_t nv, const pc_xnn_node_desc *n, const int32_t *xs,
                const int32_t *ys, uint8_t dim) {
  uint8_t *blob;
  size_t size;
  if (pc_xnn_emit(v, nv, n, 1, 2, NULL, &blob, &size) != PTERA_OK) {
    fprintf(stderr, "xnn_speed_gen: cannot build the XNNGraph for %s\n", path);
    return 1;
  }
  int rc = write_pte(path, blob, size, xs, ys, dim);
  pt_free(NULL, blob);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 2) return fprintf(stderr, "usage: xnn_speed_gen OUT_DIR\n"), 2;
  char path[4096];
  int rc = 0;
  { /* FullyConnected 1024 x 1024, batch 1024 */
    enum { M = 1024, K = 1024, N = 1024 };
    float *w = uniform((size_t)N * K), *b = uniform(N);
    if (!w || !b) return fprintf(stderr, "xnn_speed_gen: out of memory\n"), 1;
    pc_xnn_value_desc v[4] = {xp_f32_value(PF_XNN_VALUE_INPUT, 0, 2, (const uint32_t[]){M, K}, NULL, 0),
                              xp_f32_value(0, 0, 2, (const uint32_t[]){N, K}, w, (size_t)N * K),
                              xp_f32_value(0, 0, 1, (const uint32_t[]){N}, b, N),
                              xp_f32_value(PF_XNN_VALUE_OUTPUT, 1, 2, (const uint32_t[]){M, N}, NULL, 0)};
    pc_xnn_node_desc n = xp_node(PF_XNN_FULLY_CONNECTED);
    snprintf(path, sizeof path, "%s/fc_xnn.pte", argv[1]);
    rc |= emit(path, v, 4, &n, (const int32_t[]){M, K}, (const int32_t[]){M, N}, 2);
    free(w);
    free(b);
  }
  { /* Conv2d 3x3, 64 -> 64, 56 x 56, padding 1, NHWC */
    enum { H = 56, W = 56, C = 64, O = 64 };
    float *w = uniform((size_t)O * 9 * C), *b = uniform(O);
    if (!w || !b) return fprintf(stderr, "xnn_speed_gen: out of memory\n"), 1;
    pc_xnn_value_desc v[4] = {xp_f32_value(PF_XNN_VALUE_INPUT, 0, 4, (const uint32_t[]){1, H, W, C}, NULL, 0),
                              xp_f32_value(0, 0, 4, (const uint32_t[]){O, 3, 3, C}, w, (size_t)O * 9 * C),
                              xp_f32_value(0, 0, 1, (const uint32_t[]){O}, b, O),
                              xp_f32_value(PF_XNN_VALUE_OUTPUT, 1, 4, (const uint32_t[]){1, H, W, O}, NULL, 0)};
    pc_xnn_node_desc n = xp_node(PF_XNN_CONV2D);
    /* padding t,r,b,l; kernel; stride; dilation; group in/out channels; groups */
    const uint32_t p[13] = {1, 1, 1, 1, 3, 3, 1, 1, 1, 1, C, O, 1};
    memcpy(n.p, p, sizeof p);
    snprintf(path, sizeof path, "%s/conv_xnn.pte", argv[1]);
    rc |= emit(path, v, 4, &n, (const int32_t[]){1, H, W, C}, (const int32_t[]){1, H, W, O}, 4);
    free(w);
    free(b);
  }
  return rc;
}

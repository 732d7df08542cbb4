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

#include "emit_pte.h"
#include "emit_xnn.h"

static uint32_t g_seed = 20261202u;

static float *uniform(size_t n) {
  float *p = malloc(n * sizeof *p);
  for (size_t i = 0; p && i < n; i++) {
    g_seed = g_seed * 1664525u + 1013904223u;
    p[i] = ((float)(g_seed >> 8) / 16777216.0f - 0.5f) * 0.1f;
  }
  return p;
}

static pc_tensor planned(const int32_t *sizes, uint8_t dim, uint64_t offset) {
  pc_tensor t;
  memset(&t, 0, sizeof t);
  t.scalar_type = PTERA_DTYPE_FLOAT;
  t.dim = dim;
  memcpy(t.sizes, sizes, dim * sizeof *sizes);
  t.storage = PC_STORAGE_PLANNED;
  t.memory_id = 1;
  t.memory_offset = offset;
  return t;
}

/* A program whose forward runs blob on input x and output y (shapes xs, ys). */
static int write_pte(const char *path, const uint8_t *blob, size_t size, const int32_t *xs, const int32_t *ys,
                     uint8_t dim) {
  uint64_t xbytes = 4;
  for (unsigned d = 0; d < dim; d++) xbytes *= (uint64_t)xs[d];
  uint64_t ybytes = 4;
  for (unsigned d = 0; d < dim; d++) ybytes *= (uint64_t)ys[d];
  pc_value vals[2];
  memset(vals, 0, sizeof vals);
  vals[0].kind = vals[1].kind = PC_VAL_TENSOR;
  vals[0].u.tensor = planned(xs, dim, 0);
  vals[1].u.tensor = planned(ys, dim, (xbytes + 63) & ~(uint64_t)63);
  static const int32_t in0[1] = {0}, out1[1] = {1}, args[2] = {0, 1};
  int64_t arena = (int64_t)(((xbytes + 63) & ~(uint64_t)63) + ybytes);
  pc_instr call = {0, args, 2, true};
  pc_delegate d = {"XnnpackBackend", blob, size};
  pc_method m = {"forward", vals, 2, in0, 1, out1, 1, &call, 1, NULL, 0, &arena, 1, &d, 1};
  pc_program p = {&m, 1, NULL, 0};
  uint8_t *out;
  size_t out_size;
  pt_err err;
  pt_err_clear(&err);
  if (pc_emit_pte(&p, NULL, &out, &out_size, &err) != PTERA_OK) {
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

static void fp32(pc_xnn_value_desc *v, uint32_t flags, uint32_t ext, uint8_t ndims, const uint32_t *dims) {
  memset(v, 0, sizeof *v);
  v->datatype = PF_XNN_DT_FP32;
  v->flags = flags;
  v->external_id = ext;
  v->ndims = ndims;
  memcpy(v->dims, dims, ndims * sizeof *dims);
}

int main(int argc, char **argv) {
  if (argc != 2) return fprintf(stderr, "usage: xnn_speed_gen OUT_DIR\n"), 2;
  char path[4096];
  int rc = 0;
  { /* FullyConnected 1024 x 1024, batch 1024 */
    enum { M = 1024, K = 1024, N = 1024 };
    float *w = uniform((size_t)N * K), *b = uniform(N);
    if (!w || !b) return fprintf(stderr, "xnn_speed_gen: out of memory\n"), 1;
    pc_xnn_value_desc v[4];
    fp32(&v[0], PF_XNN_VALUE_INPUT, 0, 2, (const uint32_t[]){M, K});
    fp32(&v[1], 0, 0, 2, (const uint32_t[]){N, K});
    v[1].data = w;
    v[1].nbytes = (size_t)N * K * 4;
    fp32(&v[2], 0, 0, 1, (const uint32_t[]){N});
    v[2].data = b;
    v[2].nbytes = N * 4;
    fp32(&v[3], PF_XNN_VALUE_OUTPUT, 1, 2, (const uint32_t[]){M, N});
    pc_xnn_node_desc n;
    memset(&n, 0, sizeof n);
    n.kind = PF_XNN_FULLY_CONNECTED;
    n.in[0] = 0;
    n.in[1] = 1;
    n.in[2] = 2;
    n.out[0] = 3;
    n.out_min = -INFINITY;
    n.out_max = INFINITY;
    snprintf(path, sizeof path, "%s/fc_xnn.pte", argv[1]);
    rc |= emit(path, v, 4, &n, (const int32_t[]){M, K}, (const int32_t[]){M, N}, 2);
    free(w);
    free(b);
  }
  { /* Conv2d 3x3, 64 -> 64, 56 x 56, padding 1, NHWC */
    enum { H = 56, W = 56, C = 64, O = 64 };
    float *w = uniform((size_t)O * 9 * C), *b = uniform(O);
    if (!w || !b) return fprintf(stderr, "xnn_speed_gen: out of memory\n"), 1;
    pc_xnn_value_desc v[4];
    fp32(&v[0], PF_XNN_VALUE_INPUT, 0, 4, (const uint32_t[]){1, H, W, C});
    fp32(&v[1], 0, 0, 4, (const uint32_t[]){O, 3, 3, C});
    v[1].data = w;
    v[1].nbytes = (size_t)O * 9 * C * 4;
    fp32(&v[2], 0, 0, 1, (const uint32_t[]){O});
    v[2].data = b;
    v[2].nbytes = O * 4;
    fp32(&v[3], PF_XNN_VALUE_OUTPUT, 1, 4, (const uint32_t[]){1, H, W, O});
    pc_xnn_node_desc n;
    memset(&n, 0, sizeof n);
    n.kind = PF_XNN_CONV2D;
    n.in[0] = 0;
    n.in[1] = 1;
    n.in[2] = 2;
    n.out[0] = 3;
    n.out_min = -INFINITY;
    n.out_max = INFINITY;
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

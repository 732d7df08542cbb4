/* XnnpackBackend quantized graphs under allocation-failure injection: a
 * Convert -> qdint8 -> FullyConnected(qbint4, bf16 block scales) graph and a
 * legacy dq_datatype graph (rewritten at init into input + Convert + qdint8).
 * Failing allocation N = 0, 1, ... of init must give
 * MemoryAllocationFailed with a message and leave nothing allocated; the
 * first N that is never reached gives a handle whose execute allocates
 * nothing and matches a hand computation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fail_alloc.h"
#include "emit_xnn.h"
#include "ptera/ptera.h"

/* Runs init under injection until it succeeds; then executes once with
 * x [rows, ic] into y [rows, oc]. Returns the number of allocations init made. */
static long init_all_failures(const uint8_t *blob, size_t size, const float *x, int32_t rows, int32_t ic, float *y,
                              int32_t oc) {
  const ptera_backend *b = ptera_backend_find("XnnpackBackend", 14);
  for (long n = 0;; n++) {
    fa_state s = {n, 0, 0, false};
    ptera_allocator a = {fa_alloc, fa_free, &s};
    char msg[512] = "";
    ptera_backend_init_ctx ictx = {"forward", &a, NULL, msg, sizeof msg, NULL, 0, 0, NULL, 0};
    void *h = NULL;
    ptera_status st = b->init(&ictx, blob, size, NULL, 0, &h);
    if (st != PTERA_OK) {
      CHECK(st == PTERA_MEMORY_ALLOCATION_FAILED && msg[0] && s.live == 0 && !h);
      if (st != PTERA_MEMORY_ALLOCATION_FAILED || n > 10000) return -1;
      continue;
    }
    CHECK(s.count <= n); /* the failure point was never reached */
    ptera_tensor t[2];
    memset(t, 0, sizeof t);
    int32_t dims[2][2] = {{rows, ic}, {rows, oc}};
    void *data[2] = {(void *)x, y};
    ptera_value v[2], *args[2] = {&v[0], &v[1]};
    for (int i = 0; i < 2; i++) {
      t[i].dtype = PTERA_DTYPE_FLOAT;
      t[i].dim = 2;
      t[i].numel = (size_t)dims[i][0] * (size_t)dims[i][1];
      for (int d = 0; d < 2; d++) {
        t[i].sizes[d] = dims[i][d];
        t[i].dim_order[d] = (uint8_t)d;
      }
      ptera_tensor_update_strides(&t[i]);
      t[i].capacity = t[i].numel * 4;
      t[i].data = data[i];
      v[i].tag = PTERA_TAG_TENSOR;
      v[i].u.tensor = &t[i];
    }
    ptera_backend_exec_ctx ectx = {"forward", msg, sizeof msg, NULL, 0, NULL};
    long before = s.count;
    CHECK(b->execute(&ectx, h, args, 2) == PTERA_OK);
    CHECK(s.count == before); /* execute allocates nothing */
    b->destroy(h);
    CHECK(s.live == 0);
    return n;
  }
}

#define OC 1024 /* enough block scales that their copy takes an arena block of its own */

/* y = x W^T with W qbint4 [OC, 64] (block 32): every weight 1 (nibble 9), the
 * block scales 0.5 and 0.25 (bf16 0x3F00, 0x3E80). */
static void test_qbint4(void) {
  static uint8_t w[OC * 32];
  static uint16_t sc[OC * 2];
  memset(w, 0x99, sizeof w);
  for (int i = 0; i < OC; i++) {
    sc[2 * i] = 0x3F00;
    sc[2 * i + 1] = 0x3E80;
  }
  pc_xnn_value_desc v[4];
  memset(v, 0, sizeof v);
  v[0] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .flags = 1, .external_id = 0, .ndims = 2, .dims = {2, 64}};
  v[1] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_QDINT8, .ndims = 2, .dims = {2, 64}, .quant = PF_XNN_Q_PER_TOKEN,
                             .num_nonbatch_dims = 1};
  v[2] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_QBINT4, .ndims = 2, .dims = {OC, 64}, .data = w, .nbytes = sizeof w,
                             .quant = PF_XNN_Q_CHANNEL_GROUP, .scales_bf16 = sc, .nscales = 2 * OC, .group_size = 32};
  v[3] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .flags = 2, .external_id = 1, .ndims = 2, .dims = {2, OC}};
  pc_xnn_node_desc n[2];
  memset(n, 0, sizeof n);
  n[0].kind = PF_XNN_CONVERT;
  n[0].in[0] = 0;
  n[0].out[0] = 1;
  n[1].kind = PF_XNN_FULLY_CONNECTED;
  n[1].in[0] = 1;
  n[1].in[1] = 2;
  n[1].in[2] = PF_XNN_NONE;
  n[1].out[0] = 3;
  uint8_t *blob;
  size_t size;
  CHECK(pc_xnn_emit(v, 4, n, 2, 2, NULL, &blob, &size) == PTERA_OK);
  /* Row 0: x = 1 everywhere: m = 255, zp = -128, q = 127; row 1: zeros (m = 1, zp = 0). */
  static float x[128], y[2 * OC];
  for (int i = 0; i < 128; i++) x[i] = i < 64 ? 1.0f : 0.0f;
  long n_allocs = init_all_failures(blob, size, x, 2, 64, y, OC);
  CHECK(n_allocs > 1);
  /* acc per block = 32 * 255 = 8160; y = (8160*0.5 + 8160*0.25) * (1/255) = 24 (fp32: within an ulp or two). */
  for (int c = 0; c < OC; c++) CHECK(fabsf(y[c] - 24.0f) < 1e-4f && y[OC + c] == 0.0f);
  printf("xnn_quant_init: qbint4 graph: %ld allocations failed in turn\n", n_allocs);
  free(blob);
}

#define NV 300 /* values, most unused: the rewritten value table takes arena blocks of its own */

/* Legacy: x [2, 8] marked dq_datatype = qint8 feeds FullyConnected with an
 * identity qcint8 filter (scale 1): y = dequantized per-token x. */
static void test_legacy_dq(void) {
  int8_t w[64];
  memset(w, 0, sizeof w);
  for (int i = 0; i < 8; i++) w[i * 9] = 1;
  float ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  static pc_xnn_value_desc v[NV];
  memset(v, 0, sizeof v);
  for (int i = 3; i < NV; i++) v[i] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .ndims = 1, .dims = {1}};
  v[0] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .flags = 1, .external_id = 0, .ndims = 2, .dims = {2, 8},
                             .dq_datatype = PF_XNN_DT_QINT8};
  v[1] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_QCINT8, .ndims = 2, .dims = {8, 8}, .data = w, .nbytes = sizeof w,
                             .quant = PF_XNN_Q_PER_CHANNEL, .scales = ones, .nscales = 8};
  v[2] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .flags = 2, .external_id = 1, .ndims = 2, .dims = {2, 8}};
  pc_xnn_node_desc n;
  memset(&n, 0, sizeof n);
  n.kind = PF_XNN_FULLY_CONNECTED;
  n.in[0] = 0;
  n.in[1] = 1;
  n.in[2] = PF_XNN_NONE;
  n.out[0] = 2;
  uint8_t *blob;
  size_t size;
  CHECK(pc_xnn_emit(v, NV, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  float x[16], y[16];
  for (int i = 0; i < 16; i++) x[i] = i < 8 ? (float)i : -(float)(i - 8) * 0.5f;
  long n_allocs = init_all_failures(blob, size, x, 2, 8, y, 8);
  CHECK(n_allocs > 1);
  /* Row 0 spans [0, 7], row 1 [-3.5, 0]: each value comes back within half a step. */
  for (int i = 0; i < 16; i++) CHECK(fabsf(y[i] - x[i]) <= 0.5f * (i < 8 ? 7.0f : 3.5f) / 255.0f + 1e-6f);
  printf("xnn_quant_init: legacy dq graph: %ld allocations failed in turn\n", n_allocs);
  free(blob);
}

int main(void) {
  test_qbint4();
  test_legacy_dq();
  return check_summary("xnn_quant_init");
}

/* pc_dedup_constants on hand-built graphs; expected ids and bytes by hand. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "graph.h"
#include "passes.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W(...) ((const uint8_t[]){__VA_ARGS__})

static const pc_gtensor *T(pc_graph *g, int32_t id) { return &g->values[id].u.t; }

/* 1.0f, 2.0f, 3.0f, 4.0f as little-endian IEEE-754 bytes. */
static const uint8_t F1234[16] = {0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40,
                                  0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80, 0x40};

static void test_merge(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  uint8_t last_differs[16];
  memcpy(last_differs, F1234, 16);
  last_differs[15] ^= 1;
  int32_t s22[] = {2, 2}, s4[] = {4};
  int32_t c1 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_CONST, F1234, 16, "w.a");
  int32_t c2 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_CONST, F1234, 16, "w.b");
  int32_t c3 = pc_graph_tensor(g, PTERA_DTYPE_INT, 2, s22, PC_T_CONST, F1234, 16, "int");
  int32_t c4 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, s4, PC_T_CONST, F1234, 16, "flat");
  int32_t c5 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_CONST, last_differs, 16, NULL);
  int32_t c6 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_CONST, F1234, 16, "mut");
  int32_t c7 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_CONST, F1234, 16, NULL);
  int32_t b = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_BUFFER, F1234, 16, "buf");
  int32_t c8 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_CONST, F1234, 16, NULL);
  /* c9 equals c1 but is the base of a view that is written: mutated. */
  int32_t c9 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_CONST, F1234, 16, NULL);
  int32_t x = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t y1 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t y2 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s22, PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t v = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, s4, PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t alpha = pc_graph_int(g, 1), zero = pc_graph_int(g, 0);
  int32_t sz = pc_graph_ints(g, (const int64_t[]){4}, 1);
  int32_t list = pc_graph_tensor_list(g, IDS(c7, c2, c3, c8), 4, false);
  int32_t opt = pc_graph_tensor_list(g, IDS(-1, c8), 2, true);
  const uint8_t *c1_data = T(g, c1)->data;

  pc_graph_call(g, "aten::add.out", IDS(x, c2, alpha, y1), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::add.out", IDS(c6, x, alpha, c6), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::cat.out", IDS(list, zero, y2), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::index.Tensor_out", IDS(x, opt, y2), W(0, 0, 1), 3);
  pc_graph_call(g, "executorch_prim::et_view.default", IDS(c9, sz, v), W(0, 0, 1), 3);
  CHECK(pc_graph_alias(g, v, c9) == PTERA_OK);
  pc_graph_call(g, "aten::add.out", IDS(v, c4, alpha, v), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::mul.out", IDS(c5, b, y1), W(0, 0, 1), 3);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, IDS(y1, y2, c8, c4), 4);

  pc_pass_stats st = {0};
  CHECK(pc_dedup_constants(g, &st) == PTERA_OK);
  /* c2, c7, c8 merge into c1: 3 constants of 16 bytes. */
  CHECK(st.merged_constants == 3);
  CHECK(st.merged_bytes == 48);
  CHECK(g->nodes[0].args[1] == c1);
  const pc_gvalue *lv = &g->values[list];
  CHECK(lv->u.tensors.ids[0] == c1 && lv->u.tensors.ids[1] == c1);
  CHECK(lv->u.tensors.ids[2] == c3 && lv->u.tensors.ids[3] == c1);
  const pc_gvalue *ov = &g->values[opt];
  CHECK(ov->u.tensors.ids[0] == -1 && ov->u.tensors.ids[1] == c1);
  CHECK(g->outputs[0] == y1 && g->outputs[1] == y2 && g->outputs[2] == c1 && g->outputs[3] == c4);
  /* Not merged: other dtype, other shape, other bytes, mutated, a buffer. */
  CHECK(g->nodes[1].args[0] == c6 && g->nodes[1].args[3] == c6);
  CHECK(g->nodes[4].args[0] == c9);
  CHECK(g->nodes[5].args[1] == c4);
  CHECK(g->nodes[6].args[0] == c5 && g->nodes[6].args[1] == b);
  /* The survivor keeps its data pointer, bytes and name. */
  const pc_gtensor *t1 = T(g, c1);
  CHECK(t1->data == c1_data && t1->nbytes == 16);
  for (int i = 0; i < 16; i++) CHECK(t1->data[i] == F1234[i]);
  CHECK(t1->fqn && strcmp(t1->fqn, "w.a") == 0);
  CHECK(t1->dtype == PTERA_DTYPE_FLOAT && t1->dim == 2 && t1->sizes[0] == 2 && t1->sizes[1] == 2);
  /* A second run merges nothing more. */
  pc_pass_stats st2 = {0};
  CHECK(pc_dedup_constants(g, &st2) == PTERA_OK && st2.merged_constants == 0);
  pc_graph_free(g);
}

/* Large constants (hashed in 32-byte strides plus a tail): two 1003-byte
 * uint8 tensors with bytes i*7 mod 256 merge; a third differing only in its
 * last byte, and a fourth differing only in byte 0, stay. */
static void test_large(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  enum { N = 1003 };
  static uint8_t a[N], d_last[N], d_first[N];
  for (int i = 0; i < N; i++) a[i] = (uint8_t)(i * 7);
  memcpy(d_last, a, N);
  memcpy(d_first, a, N);
  d_last[N - 1] ^= 0x80;
  d_first[0] ^= 0x01;
  int32_t s[] = {N};
  int32_t k0 = pc_graph_tensor(g, PTERA_DTYPE_BYTE, 1, s, PC_T_CONST, d_last, N, NULL);
  int32_t k1 = pc_graph_tensor(g, PTERA_DTYPE_BYTE, 1, s, PC_T_CONST, a, N, "first");
  int32_t k2 = pc_graph_tensor(g, PTERA_DTYPE_BYTE, 1, s, PC_T_CONST, d_first, N, NULL);
  int32_t k3 = pc_graph_tensor(g, PTERA_DTYPE_BYTE, 1, s, PC_T_CONST, a, N, "second");
  pc_graph_set_outputs(g, IDS(k0, k1, k2, k3), 4);
  pc_pass_stats st = {0};
  CHECK(pc_dedup_constants(g, &st) == PTERA_OK);
  CHECK(st.merged_constants == 1 && st.merged_bytes == N);
  CHECK(g->outputs[0] == k0 && g->outputs[1] == k1 && g->outputs[2] == k2 && g->outputs[3] == k1);
  bool same = true;
  for (int i = 0; i < N; i++) same = same && T(g, k1)->data[i] == (uint8_t)(i * 7);
  CHECK(same);
  CHECK(strcmp(T(g, k1)->fqn, "first") == 0);
  pc_graph_free(g);
}

int main(void) {
  test_merge();
  test_large();
  return check_summary("dedup");
}

/* The quantizers on hand-built graphs (compiler/quant.h): 8da4w's blockwise
 * 4-bit filters in the XNNPACK blob (bytes and bfloat16 scales against the
 * formula computed here again) and its 8-bit fallback with a warning;
 * weight-only int8 / int4 (pc_quantize_weights): the calls inserted before
 * each layer and their constants; the bfloat16 warning and the errors that
 * name a node. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "compile.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W(...) ((const uint8_t[]){__VA_ARGS__})

static float w64[64 * 3], w48[48 * 2];

static void fill(void) {
  for (int i = 0; i < 64 * 3; i++) w64[i] = (float)((i * 37) % 29 - 14) / (float)(1 + i % 5);
  for (int i = 0; i < 48 * 2; i++) w48[i] = (float)((i * 11) % 13 - 6) / 7.0f;
  w64[5] = 0; /* a group of (3, 1): make one all-zero group below */
  for (int k = 32; k < 64; k++) w64[k * 3 + 2] = 0;
}

static int32_t fconst(pc_graph *g, int dt, const int32_t *sizes, const void *d, size_t n, const char *fqn) {
  return pc_graph_tensor(g, dt, 2, sizes, PC_T_CONST, d, n, fqn);
}
static int32_t fact(pc_graph *g, int32_t a, int32_t b) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(a, b), PC_T_ACTIVATION, NULL, 0, NULL);
}

/* The formula (quant.h), written out again: scale = max(amax / 7.5, eps). */
static float q4_scale(const float *w, int oc, int o, int k0, int gs) {
  float amax = 0;
  for (int k = k0; k < k0 + gs; k++) amax = fmaxf(amax, fabsf(w[k * oc + o]));
  return fmaxf(amax / 7.5f, FLT_EPSILON);
}
static int q4(float v, float s) { return (int)fminf(7, fmaxf(-8, rintf(v / s))); }

/* y1 = mm(x [2,64], W [64,3]); y2 = mm(x2 [2,48], W2 [48,2]) -> 8da4w (32):
 * the first blockwise 4-bit, the second 8-bit with a warning naming it. */
static void test_8da4w(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  pc_diag d;
  memset(&d, 0, sizeof d);
  g->diag = &d;
  int32_t x = fact(g, 2, 64), w = fconst(g, PTERA_DTYPE_FLOAT, IDS(64, 3), w64, sizeof w64, "a.weight");
  int32_t x2 = fact(g, 2, 48), w2 = fconst(g, PTERA_DTYPE_FLOAT, IDS(48, 2), w48, sizeof w48, "b.weight");
  int32_t y = fact(g, 2, 3), y2 = fact(g, 2, 2);
  pc_graph_call(g, "aten::mm.out", IDS(x, w, y), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::mm.out", IDS(x2, w2, y2), W(0, 0, 1), 3);
  CHECK(pc_graph_set_inputs(g, IDS(x, x2), 2) == PTERA_OK && pc_graph_set_outputs(g, IDS(y, y2), 2) == PTERA_OK);
  pc_xnn_stats st;
  memset(&st, 0, sizeof st);
  CHECK(pc_to_xnnpack(g, PC_XNN_QUANT_8DA4W, 32, NULL, &st) == PTERA_OK);
  CHECK(st.quantized == 2 && st.quantized_4bit == 1 && st.cpu_nodes == 0);
  CHECK(d.count == 1 && d.text && strstr(d.text, "node 1 (aten::mm.out, weight 'b.weight'): group size 32 "
                                                 "does not divide its 48 input features; quantized 8da8w"));
  pt_arena a;
  pt_arena_init(&a, NULL);
  const pf_xnn_value *f4 = NULL, *f8 = NULL;
  pf_xnn_graph xg, x4;
  memset(&x4, 0, sizeof x4);
  for (uint32_t j = 0; j < g->nnodes; j++) {
    pt_err e;
    CHECK(g->nodes[j].delegate);
    CHECK(pf_xnn_parse(g->nodes[j].blob, g->nodes[j].blob_size, &a, &xg, &e) == PTERA_OK);
    for (uint32_t i = 0; i < xg.nnodes; i++) {
      const pf_xnn_node *n = &xg.nodes[i];
      if (n->kind != PF_XNN_FULLY_CONNECTED) continue;
      const pf_xnn_value *f = &xg.values[n->in[1]];
      CHECK(n->flags == 0 && xg.values[n->in[0]].datatype == PF_XNN_DT_QDINT8);
      if (f->datatype == PF_XNN_DT_QBINT4) f4 = f, x4 = xg;
      if (f->datatype == PF_XNN_DT_QCINT8) f8 = f;
    }
  }
  CHECK(f4 && f8);
  if (f4) {
    CHECK(f4->quant == PF_XNN_Q_CHANNEL_GROUP && f4->group_size == 32 && f4->channel_dim == 0);
    CHECK(f4->ndims == 2 && f4->dims[0] == 3 && f4->dims[1] == 64 && f4->num_scales == 6);
    uint8_t want_q[3 * 32];
    uint16_t want_s[6];
    for (int o = 0; o < 3; o++)
      for (int b = 0; b < 2; b++) {
        float s = q4_scale(w64, 3, o, 32 * b, 32);
        want_s[o * 2 + b] = pt_float_to_bf16(s);
        for (int k = 32 * b; k < 32 * b + 32; k += 2)
          want_q[o * 32 + k / 2] =
              (uint8_t)((q4(w64[k * 3 + o], s) + 8) | ((q4(w64[(k + 1) * 3 + o], s) + 8) << 4));
      }
    CHECK(want_s[5] == pt_float_to_bf16(FLT_EPSILON)); /* the all-zero group */
    const pf_xnn_const *wk = f4->constant_idx < x4.nconsts ? &x4.consts[f4->constant_idx] : NULL;
    const pf_xnn_const *sk = f4->scale_buffer_idx < x4.nconsts ? &x4.consts[f4->scale_buffer_idx] : NULL;
    CHECK(wk && wk->named && sk && !sk->named && sk->size == sizeof want_s);
    if (sk && sk->size == sizeof want_s) CHECK(memcmp(sk->data, want_s, sizeof want_s) == 0);
    bool found = false;
    for (uint32_t i = 0; wk && i < g->nnamed; i++)
      if (strlen(g->named[i].key) == wk->key.len && memcmp(g->named[i].key, wk->key.ptr, wk->key.len) == 0)
        found = g->named[i].nbytes == sizeof want_q && memcmp(g->named[i].data, want_q, sizeof want_q) == 0;
    CHECK(found);
  }
  if (f8) CHECK(f8->quant == PF_XNN_Q_PER_CHANNEL && f8->dims[0] == 2 && f8->dims[1] == 48);
  pt_arena_release(&a);
  pc_diag_free(&d);
  pc_graph_free(g);
}

/* A group size XNNPACK's qbint4 cannot take fails before anything changes. */
static void test_8da4w_group_size(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = fact(g, 2, 64), w = fconst(g, PTERA_DTYPE_FLOAT, IDS(64, 3), w64, sizeof w64, NULL);
  int32_t y = fact(g, 2, 3);
  pc_graph_call(g, "aten::mm.out", IDS(x, w, y), W(0, 0, 1), 3);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
  CHECK(pc_to_xnnpack(g, PC_XNN_QUANT_8DA4W, 16, NULL, NULL) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(g->err.msg, "8da4w group size 16") != NULL);
  CHECK(g->nnodes == 1 && !g->nodes[0].delegate);
  pc_graph_free(g);
}

static const pc_gtensor *tensor(const pc_graph *g, int32_t v) { return &g->values[v].u.t; }

/* int8-weight on mm(x, W [64,3]): dequantize_per_channel(Wq [64,3] int8,
 * scales [3], None, axis 1, -127, 127, Char) then mm of its output. */
static void test_int8_weight(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = fact(g, 2, 64), w = fconst(g, PTERA_DTYPE_FLOAT, IDS(64, 3), w64, sizeof w64, "a.weight");
  int32_t y = fact(g, 2, 3);
  pc_graph_call(g, "aten::mm.out", IDS(x, w, y), W(0, 0, 1), 3);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
  pc_pass_stats ps;
  memset(&ps, 0, sizeof ps);
  CHECK(pc_quantize_weights(g, 8, 32, &ps) == PTERA_OK && ps.quantized_weights == 1);
  CHECK(g->nnodes == 2);
  const pc_gnode *dq = &g->nodes[0], *mm = &g->nodes[1];
  CHECK(strcmp(dq->op, "quantized_decomposed::dequantize_per_channel.out") == 0 && dq->nargs == 9);
  CHECK(strcmp(mm->op, "aten::mm.out") == 0 && mm->args[1] == dq->args[8] && mm->args[0] == x);
  const pc_gtensor *q = tensor(g, dq->args[0]), *s = tensor(g, dq->args[1]);
  CHECK(q->dtype == PTERA_DTYPE_CHAR && q->sizes[0] == 64 && q->sizes[1] == 3 && q->store == PC_T_CONST);
  CHECK(s->dtype == PTERA_DTYPE_FLOAT && s->sizes[0] == 3);
  CHECK(g->values[dq->args[2]].kind == PC_G_NONE && g->values[dq->args[3]].u.i == 1);
  CHECK(g->values[dq->args[4]].u.i == -127 && g->values[dq->args[5]].u.i == 127);
  CHECK(g->values[dq->args[6]].u.i == PTERA_DTYPE_CHAR);
  for (int o = 0; o < 3; o++) {
    float amax = 0;
    for (int k = 0; k < 64; k++) amax = fmaxf(amax, fabsf(w64[k * 3 + o]));
    float sc = fmaxf(amax / 127.0f, FLT_EPSILON);
    CHECK(((const float *)s->data)[o] == sc);
    for (int k = 0; k < 64; k++)
      CHECK(((const int8_t *)q->data)[k * 3 + o] == (int8_t)fminf(127, fmaxf(-127, rintf(w64[k * 3 + o] / sc))));
  }
  pc_graph_free(g);
}

/* int4-weight on linear(x, W [3,64] as [oc, ic], b): dequantize over the
 * groups (Wq [6,32], axis 0, -8, 7) -> view_copy [3,64] -> linear. And on
 * mm a permute_copy after the view. */
static void test_int4_weight(void) {
  for (int mm = 0; mm < 2; mm++) {
    pc_graph *g = pc_graph_new(NULL, "forward");
    int32_t x = fact(g, 2, 64), y = fact(g, 2, 3), none = pc_graph_none(g);
    int32_t w = fconst(g, PTERA_DTYPE_FLOAT, mm ? IDS(64, 3) : IDS(3, 64), w64, sizeof w64, NULL);
    if (mm) pc_graph_call(g, "aten::mm.out", IDS(x, w, y), W(0, 0, 1), 3);
    else pc_graph_call(g, "aten::linear.out", IDS(x, w, none, y), W(0, 0, 0, 1), 4);
    CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
    CHECK(pc_quantize_weights(g, 4, 32, NULL) == PTERA_OK);
    CHECK(g->nnodes == (uint32_t)(mm ? 4 : 3));
    if (g->nnodes != (uint32_t)(mm ? 4 : 3)) {
      pc_graph_free(g);
      continue;
    }
    const pc_gnode *dq = &g->nodes[0], *view = &g->nodes[1], *layer = &g->nodes[g->nnodes - 1];
    CHECK(strcmp(view->op, "aten::view_copy.out") == 0 && view->args[0] == dq->args[8]);
    CHECK(tensor(g, view->args[2])->sizes[0] == 3 && tensor(g, view->args[2])->sizes[1] == 64);
    if (mm) CHECK(strcmp(g->nodes[2].op, "aten::permute_copy.out") == 0 && g->nodes[2].args[0] == view->args[2]);
    CHECK(layer->args[1] == g->nodes[g->nnodes - 2].args[2]);
    const pc_gtensor *q = tensor(g, dq->args[0]), *s = tensor(g, dq->args[1]);
    CHECK(q->sizes[0] == 6 && q->sizes[1] == 32 && s->sizes[0] == 6);
    CHECK(g->values[dq->args[3]].u.i == 0 && g->values[dq->args[4]].u.i == -8 && g->values[dq->args[5]].u.i == 7);
    /* W[o][k] is w64[k*3+o] for mm, w64[o*64+k] for linear */
    for (int o = 0; o < 3; o++)
      for (int b = 0; b < 2; b++) {
        float amax = 0;
        for (int k = 32 * b; k < 32 * b + 32; k++) amax = fmaxf(amax, fabsf(w64[mm ? k * 3 + o : o * 64 + k]));
        float sc = fmaxf(amax / 7.5f, FLT_EPSILON);
        CHECK(((const float *)s->data)[o * 2 + b] == sc);
        for (int k = 32 * b; k < 32 * b + 32; k++)
          CHECK(((const int8_t *)q->data)[o * 64 + k] == q4(w64[mm ? k * 3 + o : o * 64 + k], sc));
      }
    pc_graph_free(g);
  }
}

/* The messages: a bfloat16 weight (warned, left alone), a group size that
 * does not divide (int4-weight fails naming the node), a linear call of a
 * run-time weight (every quantizer fails naming the node). */
static void test_messages(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  pc_diag d;
  memset(&d, 0, sizeof d);
  g->diag = &d;
  uint16_t hb[48 * 2] = {0};
  int32_t x = pc_graph_tensor(g, PTERA_DTYPE_BFLOAT16, 2, IDS(2, 48), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t y = pc_graph_tensor(g, PTERA_DTYPE_BFLOAT16, 2, IDS(2, 2), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t w = fconst(g, PTERA_DTYPE_BFLOAT16, IDS(48, 2), hb, sizeof hb, "head.weight");
  pc_graph_call(g, "aten::mm.out", IDS(x, w, y), W(0, 0, 1), 3);
  int32_t x2 = fact(g, 2, 48), y2 = fact(g, 2, 2);
  int32_t w2 = fconst(g, PTERA_DTYPE_FLOAT, IDS(48, 2), w48, sizeof w48, "b.weight");
  pc_graph_call(g, "aten::mm.out", IDS(x2, w2, y2), W(0, 0, 1), 3);
  CHECK(pc_graph_set_inputs(g, IDS(x, x2), 2) == PTERA_OK && pc_graph_set_outputs(g, IDS(y, y2), 2) == PTERA_OK);
  CHECK(pc_quantize_weights(g, 4, 32, NULL) == PTERA_NOT_SUPPORTED);
  CHECK(strstr(g->err.msg, "node 1 (aten::mm.out, weight 'b.weight'): group size 32 does not divide its 48 "
                           "input features") != NULL);
  CHECK(d.count == 1 && strstr(d.text, "method 'forward': node 0 (aten::mm.out): bfloat16 weight "
                                       "'head.weight' left unquantized") != NULL);
  pt_err_clear(&g->err);
  CHECK(pc_quantize_weights(g, 4, 16, NULL) == PTERA_OK && g->nnodes == 2 + 3); /* 16 divides 48 */
  CHECK(strcmp(g->nodes[0].op, "aten::mm.out") == 0 && g->nodes[0].args[1] == w); /* bf16 untouched */
  pc_diag_free(&d);
  pc_graph_free(g);

  for (int scheme = 0; scheme < 2; scheme++) {
    g = pc_graph_new(NULL, "forward");
    int32_t xa = fact(g, 2, 32), wa = fact(g, 4, 32), ya = fact(g, 2, 4), none = pc_graph_none(g);
    pc_graph_call(g, "aten::linear.out", IDS(xa, wa, none, ya), W(0, 0, 0, 1), 4);
    CHECK(pc_graph_set_inputs(g, IDS(xa, wa), 2) == PTERA_OK && pc_graph_set_outputs(g, &ya, 1) == PTERA_OK);
    ptera_status st = scheme ? pc_quantize_weights(g, 8, 32, NULL) : pc_to_xnnpack(g, PC_XNN_QUANT_8DA8W, 32, NULL, NULL);
    CHECK(st == PTERA_NOT_SUPPORTED);
    CHECK(strstr(g->err.msg, "node 0 (aten::linear.out) cannot be quantized: its weight (value 1) is not a "
                             "constant") != NULL);
    pc_graph_free(g);
  }
}

int main(void) {
  fill();
  test_8da4w();
  test_8da4w_group_size();
  test_int8_weight();
  test_int4_weight();
  test_messages();
  return check_summary("test_quantize");
}

/* pc_to_xnnpack on hand-built graphs: which calls go to the delegate, the
 * blob each partition becomes (read back with the runtime's XNNGraph reader:
 * transposes only at the partition's boundary, a ReLU fused into the
 * convolution's output_min_max, external ids in DelegateCall order, weights
 * named by their SHA-256 and laid out OHWI), and the compiled program's
 * outputs against the same graph compiled for the CPU alone (the portable
 * kernels as the reference). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compile.h"
#include "compile_util.h"
#include "ptera/ptera.h"
#include "sha256.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W(...) ((const uint8_t[]){__VA_ARGS__})


/* Weights: conv 2 -> 3 channels, 3x3; linear as mm with [ic = 3*2*2, oc = 2]. */
static float cw[3 * 2 * 3 * 3], cb[3], mw[12 * 2];

static void fill(void) {
  for (size_t i = 0; i < sizeof cw / sizeof *cw; i++) cw[i] = (float)((int)(i * 7 % 11) - 5) / 8;
  for (size_t i = 0; i < 3; i++) cb[i] = (float)i / 4 - 0.25f;
  for (size_t i = 0; i < sizeof mw / sizeof *mw; i++) mw[i] = (float)((int)(i * 5 % 9) - 4) / 6;
}

/* x [1,2,4,4] -> conv(pad 1) -> relu -> max_pool 2x2 -> [sin on the CPU when
 * cpu_op] -> view [1,12] -> mm(W [12,2]) -> out [1,2]. */
static pc_graph *build(bool cpu_op, bool weight_const) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = cu_fact(g, 4, IDS(1, 2, 4, 4));
  int32_t w = weight_const ? cu_fconst(g, 4, IDS(3, 2, 3, 3), cw, 54) : cu_fact(g, 4, IDS(3, 2, 3, 3));
  int32_t b = cu_fconst(g, 1, IDS(3), cb, 3);
  int32_t ones = pc_graph_ints(g, (const int64_t[]){1, 1}, 2);
  int32_t zeros = pc_graph_ints(g, (const int64_t[]){0, 0}, 2);
  int32_t twos = pc_graph_ints(g, (const int64_t[]){2, 2}, 2);
  int32_t f = pc_graph_bool(g, false), one = pc_graph_int(g, 1);
  int32_t c = cu_fact(g, 4, IDS(1, 3, 4, 4)), r = cu_fact(g, 4, IDS(1, 3, 4, 4));
  int32_t p = cu_fact(g, 4, IDS(1, 3, 2, 2));
  int32_t idx = pc_graph_tensor(g, PTERA_DTYPE_LONG, 4, IDS(1, 3, 2, 2), PC_T_ACTIVATION, NULL, 0,
                                NULL);
  int32_t s = cpu_op ? cu_fact(g, 4, IDS(1, 3, 2, 2)) : p;
  int32_t shape = pc_graph_ints(g, (const int64_t[]){1, 12}, 2);
  int32_t v = cu_fact(g, 2, IDS(1, 12)), m = cu_fconst(g, 2, IDS(12, 2), mw, 24), y = cu_fact(g, 2, IDS(1, 2));
  int32_t ins[2] = {x, w};
  pc_graph_call(g, "aten::convolution.out", IDS(x, w, b, ones, ones, ones, f, zeros, one, c),
                W(0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 10);
  pc_graph_call(g, "aten::relu.out", IDS(c, r), W(0, 1), 2);
  pc_graph_call(g, "aten::max_pool2d_with_indices.out", IDS(r, twos, twos, zeros, ones, f, p, idx),
                W(0, 0, 0, 0, 0, 0, 1, 1), 8);
  if (cpu_op) pc_graph_call(g, "aten::sin.out", IDS(p, s), W(0, 1), 2);
  pc_graph_call(g, "aten::view_copy.out", IDS(s, shape, v), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::mm.out", IDS(v, m, y), W(0, 0, 1), 3);
  CHECK(pc_graph_set_inputs(g, ins, weight_const ? 1 : 2) == PTERA_OK);
  CHECK(pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
  return g;
}

static uint32_t count_kind(const pf_xnn_graph *x, uint8_t kind) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < x->nnodes; i++) n += x->nodes[i].kind == kind;
  return n;
}

static const pf_xnn_node *find_kind(const pf_xnn_graph *x, uint8_t kind) {
  for (uint32_t i = 0; i < x->nnodes; i++)
    if (x->nodes[i].kind == kind) return &x->nodes[i];
  return NULL;
}

/* The delegate node's blob and DelegateCall arguments agree. */
static void check_externals(const pc_graph *g, const pc_gnode *n, const pf_xnn_graph *x) {
  CHECK(x->num_externs == n->nargs);
  uint32_t seen = 0;
  for (uint32_t i = 0; i < x->nvalues; i++) {
    const pf_xnn_value *v = &x->values[i];
    if (!v->flags) continue;
    seen++;
    CHECK(v->external_id < n->nargs);
    if (v->external_id >= n->nargs) continue;
    CHECK(((v->flags & PF_XNN_VALUE_OUTPUT) != 0) == (n->writes[v->external_id] != 0));
    const pc_gtensor *t = &g->values[n->args[v->external_id]].u.t;
    CHECK(v->ndims == t->dim);
    for (uint32_t d = 0; d < t->dim && d < v->ndims; d++) CHECK(v->dims[d] == (uint32_t)t->sizes[d]);
  }
  CHECK(seen == n->nargs);
}

static void test_one_partition(void) {
  pc_graph *g = build(false, true);
  pc_xnn_stats st = {0};
  CHECK(pc_to_xnnpack(g, PC_XNN_QUANT_NONE, 32, NULL, &st) == PTERA_OK);
  CHECK(st.partitions == 1 && st.delegated_nodes == 5 && st.cpu_nodes == 0);
  CHECK(g->nnodes == 1 && g->nodes[0].delegate && strcmp(g->nodes[0].op, "XnnpackBackend") == 0);
  const pc_gnode *n = &g->nodes[0];
  CHECK(n->nargs == 2 && n->args[0] == g->inputs[0] && n->args[1] == g->outputs[0]);
  pt_arena a;
  pt_arena_init(&a, NULL);
  pf_xnn_graph x;
  pt_err e;
  CHECK(pf_xnn_parse(n->blob, n->blob_size, &a, &x, &e) == PTERA_OK);
  check_externals(g, n, &x);
  /* NCHW -> NHWC before the convolution, NHWC -> NCHW before the reshape;
   * the ReLU is the convolution's clamp. */
  CHECK(x.nnodes == 6);
  CHECK(count_kind(&x, PF_XNN_STATIC_TRANSPOSE) == 2 && count_kind(&x, PF_XNN_CLAMP) == 0);
  const pf_xnn_node *conv = find_kind(&x, PF_XNN_CONV2D), *fc = find_kind(&x, PF_XNN_FULLY_CONNECTED);
  CHECK(conv && conv->has_min_max && conv->out_min == 0.0f && isinf(conv->out_max));
  CHECK(fc && fc->flags == PF_XNN_FLAG_TRANSPOSE_WEIGHTS && fc->in[2] == PF_XNN_NONE);
  CHECK(find_kind(&x, PF_XNN_MAX_POOL) && find_kind(&x, PF_XNN_STATIC_RESHAPE));
  if (conv) {
    /* The filter: OHWI, named by the SHA-256 of those bytes, in g->named. */
    const pf_xnn_value *f = &x.values[conv->in[1]];
    CHECK(f->ndims == 4 && f->dims[0] == 3 && f->dims[1] == 3 && f->dims[2] == 3 && f->dims[3] == 2);
    float ohwi[54];
    for (int o = 0; o < 3; o++)
      for (int i = 0; i < 2; i++)
        for (int h = 0; h < 3; h++)
          for (int w = 0; w < 3; w++) ohwi[((o * 3 + h) * 3 + w) * 2 + i] = cw[((o * 2 + i) * 3 + h) * 3 + w];
    char hex[65];
    pc_sha256_hex(ohwi, sizeof ohwi, hex);
    const pf_xnn_const *k = f->constant_idx < x.nconsts ? &x.consts[f->constant_idx] : NULL;
    CHECK(k && k->named && k->key.len == 64 && memcmp(k->key.ptr, hex, 64) == 0 && k->size == sizeof ohwi);
    bool found = false;
    for (uint32_t i = 0; i < g->nnamed; i++)
      if (strcmp(g->named[i].key, hex) == 0)
        found = g->named[i].nbytes == sizeof ohwi && memcmp(g->named[i].data, ohwi, sizeof ohwi) == 0;
    CHECK(found);
    CHECK(g->nnamed == 3); /* filter, bias, mm weight */
  }
  pt_arena_release(&a);
  pc_graph_free(g);
}

/* A CPU call in the middle: two partitions, each NCHW at its boundary. */
static void test_split(void) {
  pc_graph *g = build(true, true);
  pc_xnn_stats st = {0};
  CHECK(pc_to_xnnpack(g, PC_XNN_QUANT_NONE, 32, NULL, &st) == PTERA_OK);
  CHECK(st.partitions == 2 && st.delegated_nodes == 5 && st.cpu_nodes == 1);
  CHECK(g->nnodes == 3 && g->nodes[0].delegate && !g->nodes[1].delegate && g->nodes[2].delegate);
  CHECK(strcmp(g->nodes[1].op, "aten::sin.out") == 0);
  /* The first delegate's output is the CPU call's input; the second reads
   * the CPU call's output. */
  CHECK(g->nodes[0].nargs == 2 && g->nodes[0].args[1] == g->nodes[1].args[0]);
  CHECK(g->nodes[2].nargs == 2 && g->nodes[2].args[0] == g->nodes[1].args[1]);
  for (int k = 0; k < 3; k += 2) {
    pt_arena a;
    pt_arena_init(&a, NULL);
    pf_xnn_graph x;
    pt_err e;
    CHECK(pf_xnn_parse(g->nodes[k].blob, g->nodes[k].blob_size, &a, &x, &e) == PTERA_OK);
    check_externals(g, &g->nodes[k], &x);
    CHECK(count_kind(&x, PF_XNN_STATIC_TRANSPOSE) == (k == 0 ? 2u : 0u));
    pt_arena_release(&a);
  }
  pc_graph_free(g);
}

/* A weight that is a method input: the convolution stays on the CPU, and
 * only it. */
static void test_rejected(void) {
  pc_graph *g = build(false, false);
  pc_xnn_stats st = {0};
  CHECK(pc_to_xnnpack(g, PC_XNN_QUANT_NONE, 32, NULL, &st) == PTERA_OK);
  CHECK(st.cpu_nodes == 1 && st.delegated_nodes == 4 && st.partitions == 1);
  CHECK(g->nnodes == 2 && strcmp(g->nodes[0].op, "aten::convolution.out") == 0 && g->nodes[1].delegate);
  pc_graph_free(g);
}

static bool run(bool cpu_op, pc_backend backend, float *out) {
  pc_graph *g = build(cpu_op, true);
  pc_compile_options o = cu_options(backend);
  pc_compile_result r;
  if (!cu_compile(g, &o, &r)) {
    pc_graph_free(g);
    return false;
  }
  ptera_program *prog;
  ptera_method *m;
  float x[32];
  for (int i = 0; i < 32; i++) x[i] = (float)((i * 13) % 17 - 8) / 5;
  const ptera_tensor *y = cu_run_forward(&r, x, 4, IDS(1, 2, 4, 4), 2, &prog, &m);
  bool ok = y != NULL;
  if (ok) memcpy(out, y->data, 2 * sizeof *out);
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  pc_compile_result_free(&r);
  pc_graph_free(g);
  return ok;
}

static void test_against_cpu(void) {
  for (int cpu_op = 0; cpu_op < 2; cpu_op++) {
    float want[2], got[2];
    if (!run(cpu_op, PC_BACKEND_NONE, want) || !run(cpu_op, PC_BACKEND_XNNPACK, got)) continue;
    for (int i = 0; i < 2; i++) CHECK(fabsf(got[i] - want[i]) <= 1e-5f * (1 + fabsf(want[i])));
    CHECK(want[0] != 0 || want[1] != 0);
  }
}

/* A dynamic-bound batch: x [<=4, 12] -> mm -> relu -> y [<=4, 2]; the blob
 * carries the bounds, and a run with 3 rows resizes the output. */
static void test_bounded(void) {
  float want[3][2], got[3][2], x[3 * 12];
  for (int i = 0; i < 36; i++) x[i] = (float)((i * 11) % 13 - 6) / 4;
  for (int backend = 0; backend < 2; backend++) {
    pc_graph *g = pc_graph_new(NULL, "forward");
    int32_t in = cu_fact(g, 2, IDS(4, 12)), w = cu_fconst(g, 2, IDS(12, 2), mw, 24);
    int32_t t = cu_fact(g, 2, IDS(4, 2)), y = cu_fact(g, 2, IDS(4, 2));
    g->values[in].u.t.dynamism = g->values[t].u.t.dynamism = g->values[y].u.t.dynamism = 1;
    pc_graph_call(g, "aten::mm.out", IDS(in, w, t), W(0, 0, 1), 3);
    pc_graph_call(g, "aten::relu.out", IDS(t, y), W(0, 1), 2);
    CHECK(pc_graph_set_inputs(g, &in, 1) == PTERA_OK && pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
    pc_compile_options o = cu_options(backend ? PC_BACKEND_XNNPACK : PC_BACKEND_NONE);
    pc_compile_result r;
    cu_compile(g, &o, &r);
    CHECK(r.methods[0].xnn.delegated_nodes == (backend ? 2u : 0u));
    ptera_program *prog;
    ptera_method *m;
    const ptera_tensor *v = cu_run_forward(&r, x, 2, IDS(3, 12), 6, &prog, &m);
    bool ok = v && v->dim == 2 && v->sizes[0] == 3;
    CHECK(ok);
    if (ok) memcpy(backend ? got : want, v->data, sizeof got);
    ptera_method_destroy(m);
    ptera_program_destroy(prog);
    pc_compile_result_free(&r);
    pc_graph_free(g);
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) CHECK(fabsf(got[i][j] - want[i][j]) <= 1e-5f * (1 + fabsf(want[i][j])));
}

/* x -> conv1 -> c1 -> conv2 -> c2 -> [sin, CPU] -> s -> conv3 -> d; y = d + c1.
 * Partitions {conv1, conv2} and {conv3, add}: c1 crosses between them in
 * NHWC (only partitions read it), so neither side transposes it. */
static pc_graph *handoff_graph(void) {
  static const float k[4] = {0.5f, -1, 0.25f, 2}, k2[4] = {1, 0.5f, -0.5f, 1}, k3[4] = {-1, 1, 2, 0.5f};
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = cu_fact(g, 4, IDS(1, 2, 3, 3)), c1 = cu_fact(g, 4, IDS(1, 2, 3, 3));
  int32_t c2 = cu_fact(g, 4, IDS(1, 2, 3, 3)), s = cu_fact(g, 4, IDS(1, 2, 3, 3));
  int32_t d = cu_fact(g, 4, IDS(1, 2, 3, 3)), y = cu_fact(g, 4, IDS(1, 2, 3, 3));
  int32_t w1 = cu_fconst(g, 4, IDS(2, 2, 1, 1), k, 4), w2 = cu_fconst(g, 4, IDS(2, 2, 1, 1), k2, 4);
  int32_t w3 = cu_fconst(g, 4, IDS(2, 2, 1, 1), k3, 4), none = pc_graph_none(g);
  int32_t ones = pc_graph_ints(g, (const int64_t[]){1, 1}, 2);
  int32_t zeros = pc_graph_ints(g, (const int64_t[]){0, 0}, 2);
  int32_t f = pc_graph_bool(g, false), one = pc_graph_int(g, 1);
  const int32_t conv[3][3] = {{x, w1, c1}, {c1, w2, c2}, {s, w3, d}};
  for (int i = 0; i < 3; i++) {
    pc_graph_call(g, "aten::convolution.out",
                  IDS(conv[i][0], conv[i][1], none, ones, zeros, ones, f, zeros, one, conv[i][2]),
                  W(0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 10);
    if (i == 1) pc_graph_call(g, "aten::sin.out", IDS(c2, s), W(0, 1), 2);
  }
  pc_graph_call(g, "aten::add.out", IDS(d, c1, one, y), W(0, 0, 0, 1), 4);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
  return g;
}

static void test_handoff(void) {
  pc_graph *g = handoff_graph();
  int32_t c1 = g->nodes[0].args[9];
  pc_xnn_stats st = {0};
  CHECK(pc_to_xnnpack(g, PC_XNN_QUANT_NONE, 32, NULL, &st) == PTERA_OK);
  CHECK(st.partitions == 2 && st.cpu_nodes == 1 && st.nhwc_handoffs == 1);
  const uint8_t *order = g->values[c1].u.t.dim_order;
  CHECK(order[0] == 0 && order[1] == 2 && order[2] == 3 && order[3] == 1);
  uint32_t transposes = 0;
  for (uint32_t k = 0; k < g->nnodes; k++) {
    if (!g->nodes[k].delegate) continue;
    pt_arena a;
    pt_arena_init(&a, NULL);
    pf_xnn_graph x;
    pt_err e;
    CHECK(pf_xnn_parse(g->nodes[k].blob, g->nodes[k].blob_size, &a, &x, &e) == PTERA_OK);
    transposes += count_kind(&x, PF_XNN_STATIC_TRANSPOSE);
    for (uint32_t i = 0; i < x.nvalues; i++) /* c1 crosses as [N, H, W, C] = [1, 3, 3, 2] */
      if (x.values[i].flags && g->nodes[k].args[x.values[i].external_id] == c1)
        CHECK(x.values[i].dims[1] == 3 && x.values[i].dims[3] == 2);
    pt_arena_release(&a);
  }
  CHECK(transposes == 4); /* x in, c2 out; s in, y out */
  pc_graph_free(g);
  /* And the program computes what the CPU alone does. */
  float got[18], want[18], xin[18];
  for (int i = 0; i < 18; i++) xin[i] = (float)(i % 7) / 3 - 1;
  for (int backend = 0; backend < 2; backend++) {
    g = handoff_graph();
    pc_compile_options o = cu_options(backend ? PC_BACKEND_XNNPACK : PC_BACKEND_NONE);
    pc_compile_result r;
    cu_compile(g, &o, &r);
    ptera_program *prog;
    ptera_method *m;
    const ptera_tensor *v = cu_run_forward(&r, xin, 4, IDS(1, 2, 3, 3), 18, &prog, &m);
    if (v) memcpy(backend ? got : want, v->data, sizeof got);
    ptera_method_destroy(m);
    ptera_program_destroy(prog);
    pc_compile_result_free(&r);
    pc_graph_free(g);
  }
  for (int i = 0; i < 18; i++) CHECK(fabsf(got[i] - want[i]) <= 1e-5f * (1 + fabsf(want[i])));
}

/* x [2,5] -> slice(dim 1, 1:4) -> add.Scalar(2, alpha 0.5) -> pow 2 ->
 * clone -> div.Scalar 4 -> mul.Scalar -3 -> sub.Scalar 1: all delegated,
 * and equal to the CPU's result. */
static void test_scalar_ops(void) {
  float xin[10], res[2][6];
  for (int i = 0; i < 10; i++) xin[i] = (float)i / 3 - 1.5f;
  for (int backend = 0; backend < 2; backend++) {
    pc_graph *g = pc_graph_new(NULL, "forward");
    int32_t x = cu_fact(g, 2, IDS(2, 5)), v[7];
    for (int i = 0; i < 7; i++) v[i] = cu_fact(g, 2, IDS(2, 3));
    int32_t dim = pc_graph_int(g, 1), start = pc_graph_int(g, 1), end = pc_graph_int(g, 4);
    int32_t one = pc_graph_int(g, 1), two = pc_graph_int(g, 2), half = pc_graph_double(g, 0.5);
    int32_t four = pc_graph_double(g, 4), m3 = pc_graph_int(g, -3), none = pc_graph_none(g);
    pc_graph_call(g, "aten::slice_copy.Tensor_out", IDS(x, dim, start, end, one, v[0]),
                  W(0, 0, 0, 0, 0, 1), 6);
    pc_graph_call(g, "aten::add.Scalar_out", IDS(v[0], two, half, v[1]), W(0, 0, 0, 1), 4);
    pc_graph_call(g, "aten::pow.Tensor_Scalar_out", IDS(v[1], two, v[2]), W(0, 0, 1), 3);
    pc_graph_call(g, "aten::clone.out", IDS(v[2], none, v[3]), W(0, 0, 1), 3);
    pc_graph_call(g, "aten::div.Scalar_out", IDS(v[3], four, v[4]), W(0, 0, 1), 3);
    pc_graph_call(g, "aten::mul.Scalar_out", IDS(v[4], m3, v[5]), W(0, 0, 1), 3);
    pc_graph_call(g, "aten::sub.Scalar_out", IDS(v[5], one, one, v[6]), W(0, 0, 0, 1), 4);
    CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &v[6], 1) == PTERA_OK);
    pc_compile_options o = cu_options(backend ? PC_BACKEND_XNNPACK : PC_BACKEND_NONE);
    pc_compile_result r;
    cu_compile(g, &o, &r);
    if (backend) CHECK(r.methods[0].xnn.delegated_nodes == 7 && r.methods[0].xnn.cpu_nodes == 0);
    ptera_program *prog;
    ptera_method *m;
    const ptera_tensor *y = cu_run_forward(&r, xin, 2, IDS(2, 5), 6, &prog, &m);
    if (y) memcpy(res[backend], y->data, sizeof res[0]);
    ptera_method_destroy(m);
    ptera_program_destroy(prog);
    pc_compile_result_free(&r);
    pc_graph_free(g);
  }
  /* by hand: ((x[:, 1:4] + 1)^2 / 4) * -3 - 1 */
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) {
      double t = xin[i * 5 + 1 + j] + 1.0, want = t * t / 4 * -3 - 1;
      CHECK(fabs(res[1][i * 3 + j] - want) <= 1e-5 * (1 + fabs(want)));
      CHECK(fabs(res[0][i * 3 + j] - want) <= 1e-5 * (1 + fabs(want)));
    }
}

/* split_copy(x [2,5], 2, dim 1) -> pieces [2,2] [2,2] [2,1], cat in reverse
 * order: all delegated; the result is x's columns 4, 2 3, 0 1. */
static void test_split_cat(void) {
  float xin[10];
  for (int i = 0; i < 10; i++) xin[i] = (float)i;
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = cu_fact(g, 2, IDS(2, 5)), a = cu_fact(g, 2, IDS(2, 2)), b = cu_fact(g, 2, IDS(2, 2));
  int32_t c = cu_fact(g, 2, IDS(2, 1)), y = cu_fact(g, 2, IDS(2, 5));
  int32_t pieces = pc_graph_tensor_list(g, IDS(a, b, c), 3, false);
  int32_t rev = pc_graph_tensor_list(g, IDS(c, b, a), 3, false);
  int32_t two = pc_graph_int(g, 2), one = pc_graph_int(g, 1);
  pc_graph_call(g, "aten::split_copy.Tensor_out", IDS(x, two, one, pieces), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::cat.out", IDS(rev, one, y), W(0, 0, 1), 3);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
  pc_compile_options o = cu_options(PC_BACKEND_XNNPACK);
  pc_compile_result r;
  cu_compile(g, &o, &r);
  CHECK(r.methods[0].xnn.delegated_nodes == 2 && r.methods[0].xnn.cpu_nodes == 0);
  ptera_program *prog;
  ptera_method *m;
  const ptera_tensor *v = cu_run_forward(&r, xin, 2, IDS(2, 5), 10, &prog, &m);
  static const float want[10] = {4, 2, 3, 0, 1, 9, 7, 8, 5, 6};
  if (v) CHECK(memcmp(v->data, want, sizeof want) == 0);
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  pc_compile_result_free(&r);
  pc_graph_free(g);
}

/* 8da8w: mm(x [2,12], W [12,2]) + addmm: each FullyConnected reads a Convert
 * of its input to qdint8 (per row) and an int8 [oc, ic] filter whose bytes
 * and scales are the formula's (to_xnnpack.h), computed here again. */
static void test_8da8w(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = cu_fact(g, 2, IDS(2, 12)), w = cu_fconst(g, 2, IDS(12, 2), mw, 24), y = cu_fact(g, 2, IDS(2, 2));
  pc_graph_call(g, "aten::mm.out", IDS(x, w, y), W(0, 0, 1), 3);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
  pc_xnn_stats st = {0};
  CHECK(pc_to_xnnpack(g, PC_XNN_QUANT_8DA8W, 32, NULL, &st) == PTERA_OK);
  CHECK(st.partitions == 1 && st.quantized == 1 && g->nnodes == 1);
  pt_arena a;
  pt_arena_init(&a, NULL);
  pf_xnn_graph xg;
  pt_err e;
  CHECK(pf_xnn_parse(g->nodes[0].blob, g->nodes[0].blob_size, &a, &xg, &e) == PTERA_OK);
  const pf_xnn_node *cv = find_kind(&xg, PF_XNN_CONVERT), *fc = find_kind(&xg, PF_XNN_FULLY_CONNECTED);
  CHECK(xg.nnodes == 2 && cv && fc);
  if (cv && fc) {
    const pf_xnn_value *q = &xg.values[cv->out[0]], *f = &xg.values[fc->in[1]];
    CHECK(fc->in[0] == cv->out[0] && fc->flags == 0);
    CHECK(q->datatype == PF_XNN_DT_QDINT8 && q->quant == PF_XNN_Q_PER_TOKEN && q->num_nonbatch_dims == 1);
    CHECK(f->datatype == PF_XNN_DT_QCINT8 && f->quant == PF_XNN_Q_PER_CHANNEL && f->channel_dim == 0);
    CHECK(f->ndims == 2 && f->dims[0] == 2 && f->dims[1] == 12 && f->num_scales == 2);
    /* The formula: scale[o] = max|W[:, o]| / 127; q = clamp(rint(W / scale), +-127). */
    int8_t want_q[24];
    float want_s[2];
    for (int o = 0; o < 2; o++) {
      float amax = 0;
      for (int k = 0; k < 12; k++) amax = fmaxf(amax, fabsf(mw[k * 2 + o]));
      want_s[o] = fmaxf(amax / 127.0f, FLT_EPSILON);
      for (int k = 0; k < 12; k++) {
        float r = rintf(mw[k * 2 + o] / want_s[o]);
        want_q[o * 12 + k] = (int8_t)fminf(127, fmaxf(-127, r));
      }
    }
    const pf_xnn_const *wk = f->constant_idx < xg.nconsts ? &xg.consts[f->constant_idx] : NULL;
    const pf_xnn_const *sk = f->scale_buffer_idx < xg.nconsts ? &xg.consts[f->scale_buffer_idx] : NULL;
    CHECK(wk && wk->named && sk && !sk->named && sk->size == sizeof want_s);
    if (sk && sk->size == sizeof want_s) CHECK(memcmp(sk->data, want_s, sizeof want_s) == 0);
    bool found = false;
    for (uint32_t i = 0; wk && i < g->nnamed; i++)
      if (strlen(g->named[i].key) == wk->key.len && memcmp(g->named[i].key, wk->key.ptr, wk->key.len) == 0)
        found = g->named[i].nbytes == sizeof want_q && memcmp(g->named[i].data, want_q, sizeof want_q) == 0;
    CHECK(found);
  }
  pt_arena_release(&a);
  pc_graph_free(g);
}

/* The support check, one call at a time: what must stay on the CPU. */
/* int8-static on build()'s graph, calibrated on the input it then runs:
 * conv (relu fused), max pool, reshape and mm compute in qint8 (qcint8
 * filters), behind a Convert of the input and before one of the output;
 * the result is within quantization error of the CPU's fp32. Without
 * samples the compile fails, saying so. */
static void test_int8_static(void) {
  float x[32], want[2];
  for (int i = 0; i < 32; i++) x[i] = (float)((i * 13) % 17 - 8) / 5;
  CHECK(run(false, PC_BACKEND_NONE, want));
  pc_graph *g = build(false, true);
  pc_compile_options o = cu_options(PC_BACKEND_XNNPACK);
  o.quantize = PC_XNN_QUANT_INT8_STATIC;
  pc_compile_result r;
  pt_err e;
  pt_err_clear(&e);
  pc_module mod = {&g, 1, NULL};
  CHECK(pc_compile(&mod, &o, &r, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(e.msg, "calibration") != NULL);
  pc_graph_free(g);
  g = build(false, true);
  const float *data[1] = {x};
  const size_t numel[1] = {32};
  pc_calibration cal = {1, 1, data, numel};
  o.calibration = &cal;
  if (!cu_compile(g, &o, &r)) {
    pc_graph_free(g);
    return;
  }
  CHECK(r.methods[0].xnn.partitions == 1 && r.methods[0].xnn.quantized == 4);
  ptera_program *prog;
  ptera_method *m;
  const ptera_tensor *y = cu_run_forward(&r, x, 4, IDS(1, 2, 4, 4), 2, &prog, &m);
  if (y) {
    const float *got = y->data;
    float big = fmaxf(fabsf(want[0]), fabsf(want[1]));
    for (int i = 0; i < 2; i++) CHECK(fabsf(got[i] - want[i]) <= 0.03f * big);
    CHECK(big > 0);
  }
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  pc_compile_result_free(&r);
  pc_graph_free(g);
}

static bool supported_one(pc_graph *g, int32_t node) {
  pc_xnn_ctx c;
  CHECK(pc_xnn_ctx_init(&c, g) == PTERA_OK);
  bool ok = pc_xnn_supported(&c, g, (uint32_t)node);
  pc_xnn_ctx_free(&c);
  pc_graph_free(g);
  return ok;
}

/* avg_pool2d(x [1,2,4,4], 2x2, stride 2, padding pad, ceil, count_include_pad). */
static bool avg_pool(int pad, bool ceil, bool include_pad, bool divisor) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = cu_fact(g, 4, IDS(1, 2, 4, 4));
  int32_t o = pad ? 3 : 2, y = cu_fact(g, 4, IDS(1, 2, o, o));
  int32_t k = pc_graph_ints(g, (const int64_t[]){2, 2}, 2);
  int32_t p = pc_graph_ints(g, (const int64_t[]){pad, pad}, 2);
  int32_t cm = pc_graph_bool(g, ceil), ip = pc_graph_bool(g, include_pad);
  int32_t dv = divisor ? pc_graph_int(g, 3) : pc_graph_none(g);
  int32_t n = pc_graph_call(g, "aten::avg_pool2d.out", IDS(x, k, k, p, cm, ip, dv, y),
                            W(0, 0, 0, 0, 0, 0, 0, 1), 8);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  return supported_one(g, n);
}

/* One-input call op(x [2,3], extra..., y [2,3]). */
static bool unary_call(const char *op, int32_t (*extra)(pc_graph *), int dtype) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = pc_graph_tensor(g, dtype, 2, IDS(2, 3), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t y = pc_graph_tensor(g, dtype, 2, IDS(2, 3), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t e = extra ? extra(g) : -1;
  int32_t n = extra ? pc_graph_call(g, op, IDS(x, e, y), W(0, 0, 1), 3)
                    : pc_graph_call(g, op, IDS(x, y), W(0, 1), 2);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  return supported_one(g, n);
}
static int32_t tanh_str(pc_graph *g) { return pc_graph_string(g, "tanh"); }
static int32_t none_str(pc_graph *g) { return pc_graph_string(g, "none"); }
static int32_t int2(pc_graph *g) { return pc_graph_int(g, 2); }
static int32_t int3(pc_graph *g) { return pc_graph_int(g, 3); }

static bool softmax_dim(int64_t dim) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = cu_fact(g, 2, IDS(2, 3)), y = cu_fact(g, 2, IDS(2, 3));
  int32_t d = pc_graph_int(g, dim), f = pc_graph_bool(g, false);
  int32_t n = pc_graph_call(g, "aten::_softmax.out", IDS(x, d, f, y), W(0, 0, 0, 1), 4);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  return supported_one(g, n);
}

/* expand_copy(x [2,1,3], size [2,d1,3]) -> y [2,d1,3]. */
static bool expand_call(int64_t d1) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = cu_fact(g, 3, IDS(2, 1, 3)), y = cu_fact(g, 3, IDS(2, d1, 3));
  int32_t size = pc_graph_ints(g, (const int64_t[]){2, d1, 3}, 3), implicit = pc_graph_bool(g, false);
  int32_t n = pc_graph_call(g, "aten::expand_copy.out", IDS(x, size, implicit, y), W(0, 0, 0, 1), 4);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  return supported_one(g, n);
}

static void test_support_rules(void) {
  CHECK(expand_call(1));  /* broadcasts nothing: a StaticReshape */
  CHECK(!expand_call(4)); /* broadcasts: no XNNPACK node, the CPU's */
  CHECK(avg_pool(0, false, true, false));   /* no padding: the divisor is the window */
  CHECK(avg_pool(1, false, false, false));  /* padding excluded, as XNNPACK does */
  CHECK(!avg_pool(1, false, true, false));  /* padding counted: XNNPACK would not */
  CHECK(!avg_pool(0, true, true, false));   /* ceil mode */
  CHECK(!avg_pool(0, false, true, true));   /* divisor override */
  CHECK(unary_call("aten::gelu.out", none_str, PTERA_DTYPE_FLOAT));
  CHECK(!unary_call("aten::gelu.out", tanh_str, PTERA_DTYPE_FLOAT)); /* XNNPACK's is exact */
  CHECK(unary_call("aten::sigmoid.out", NULL, PTERA_DTYPE_FLOAT));
  CHECK(!unary_call("aten::sigmoid.out", NULL, PTERA_DTYPE_DOUBLE));
  CHECK(!unary_call("aten::sin.out", NULL, PTERA_DTYPE_FLOAT));      /* no node for it */
  CHECK(unary_call("aten::pow.Tensor_Scalar_out", int2, PTERA_DTYPE_FLOAT));
  CHECK(!unary_call("aten::pow.Tensor_Scalar_out", int3, PTERA_DTYPE_FLOAT));
  CHECK(softmax_dim(1) && softmax_dim(-1) && !softmax_dim(0));
}

/* x [2,12] -> mm(W [12,2]) -> view [1,4] -> relu: the ReLU, one reshape
 * past the product, still becomes the FullyConnected's output_min_max (no
 * Clamp node), and the program computes relu(x W) (by hand). */
static pc_graph *view_relu_graph(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = cu_fact(g, 2, IDS(2, 12)), m = cu_fconst(g, 2, IDS(12, 2), mw, 24), y = cu_fact(g, 2, IDS(2, 2));
  int32_t shape = pc_graph_ints(g, (const int64_t[]){1, 4}, 2);
  int32_t v = cu_fact(g, 2, IDS(1, 4)), r = cu_fact(g, 2, IDS(1, 4));
  pc_graph_call(g, "aten::mm.out", IDS(x, m, y), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::view_copy.out", IDS(y, shape, v), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::relu.out", IDS(v, r), W(0, 1), 2);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &r, 1) == PTERA_OK);
  return g;
}

static void test_clamp_through_view(void) {
  pc_graph *g = view_relu_graph();
  pc_xnn_stats st = {0};
  CHECK(pc_to_xnnpack(g, PC_XNN_QUANT_NONE, 32, NULL, &st) == PTERA_OK);
  CHECK(st.partitions == 1 && st.delegated_nodes == 3 && g->nnodes == 1);
  pt_arena a;
  pt_arena_init(&a, NULL);
  pf_xnn_graph x;
  pt_err e;
  CHECK(g->nnodes == 1 && pf_xnn_parse(g->nodes[0].blob, g->nodes[0].blob_size, &a, &x, &e) == PTERA_OK);
  const pf_xnn_node *fc = g->nnodes == 1 ? find_kind(&x, PF_XNN_FULLY_CONNECTED) : NULL;
  CHECK(fc && fc->has_min_max && fc->out_min == 0.0f && isinf(fc->out_max));
  CHECK(g->nnodes == 1 && count_kind(&x, PF_XNN_CLAMP) == 0);
  pt_arena_release(&a);
  pc_graph_free(g);

  float xin[24];
  for (int i = 0; i < 24; i++) xin[i] = (float)((i * 7) % 13) / 4 - 1.5f;
  g = view_relu_graph();
  pc_compile_options o = cu_options(PC_BACKEND_XNNPACK);
  pc_compile_result res;
  cu_compile(g, &o, &res);
  ptera_program *prog;
  ptera_method *m;
  const ptera_tensor *y = cu_run_forward(&res, xin, 2, IDS(2, 12), 4, &prog, &m);
  CHECK(y != NULL);
  for (int i = 0; y && i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double want = 0;
      for (int k = 0; k < 12; k++) want += (double)xin[i * 12 + k] * mw[k * 2 + j];
      want = want > 0 ? want : 0;
      CHECK(fabs(((const float *)y->data)[i * 2 + j] - want) <= 1e-5 * (1 + fabs(want)));
    }
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  pc_compile_result_free(&res);
  pc_graph_free(g);
}

int main(void) {
  fill();
  test_one_partition();
  test_split();
  test_rejected();
  test_against_cpu();
  test_bounded();
  test_handoff();
  test_scalar_ops();
  test_clamp_through_view();
  test_support_rules();
  test_split_cat();
  test_8da8w();
  test_int8_static();
  return check_summary("test_to_xnnpack");
}

/* pc_elide_views on hand-built graphs: which copies become et_view (worked
 * out by hand per case), and programs compiled with and without the pass
 * run to the same hand-computed outputs. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compile.h"
#include "compile_util.h"
#include "graph.h"
#include "passes.h"
#include "ptera/ptera.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W(...) ((const uint8_t[]){__VA_ARGS__})

static const char ET_VIEW[] = "executorch_prim::et_view.default";

static int32_t f4(pc_graph *g) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, IDS(4), PC_T_ACTIVATION, NULL, 0, NULL);
}
static int32_t f22(pc_graph *g) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(2, 2), PC_T_ACTIVATION, NULL, 0, NULL);
}

/*  n0 a = relu(x)            x: [4]
 *  n1 v = view_copy(a, [2,2])  -> et_view(a, [2, 2]): nothing writes a or v again
 *  n2 y = mul(v, c)          c: CONST [2,2] = {1,2,3,4}; y is the output
 * With x = {-1, 2, -3, 4}: a = {0, 2, 0, 4}, y = {0, 4, 0, 16}. */
static pc_graph *view_graph(bool inplace_after, bool view_is_output) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  static const float c[4] = {1, 2, 3, 4};
  int32_t cc = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(2, 2), PC_T_CONST, c, 16, "c");
  int32_t x = f4(g), a = f4(g), v = f22(g), y = f22(g);
  int32_t size = pc_graph_ints(g, (const int64_t[]){2, 2}, 2), one = pc_graph_int(g, 1);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_call(g, "aten::relu.out", IDS(x, a), W(0, 1), 2);
  pc_graph_call(g, "aten::view_copy.out", IDS(a, size, v), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::mul.out", IDS(v, cc, y), W(0, 0, 1), 3);
  /* a += a afterwards: through a shared view, v would change too */
  if (inplace_after) pc_graph_call(g, "aten::add.out", IDS(a, a, one, a), W(0, 0, 0, 1), 4);
  /* (a is then an output too, so the in-place call is live) */
  pc_graph_set_outputs(g, view_is_output ? IDS(y, v) : inplace_after ? IDS(y, a) : IDS(y),
                       view_is_output || inplace_after ? 2 : 1);
  return g;
}

static void test_rewrite(void) {
  pc_graph *g = view_graph(false, false);
  pc_pass_stats s;
  memset(&s, 0, sizeof s);
  CHECK(pc_elide_views(g, &s) == PTERA_OK);
  CHECK(s.elided_views == 1);
  const pc_gnode *n = &g->nodes[1];
  CHECK(strcmp(n->op, ET_VIEW) == 0 && n->nargs == 3);
  CHECK(n->args[0] == 2 && n->args[2] == 3 && n->writes[2] && !n->writes[0] && !n->writes[1]);
  const pc_gvalue *sz = &g->values[n->args[1]];
  CHECK(sz->kind == PC_G_INTS && sz->u.ints.len == 2 && sz->u.ints.items[0] == 2 &&
        sz->u.ints.items[1] == 2);
  CHECK(pc_graph_alias_root(g, 2) == pc_graph_alias_root(g, 3));
  pc_graph_free(g);
}

static void test_kept(void) {
  pc_pass_stats s;
  /* written in place afterwards */
  pc_graph *g = view_graph(true, false);
  memset(&s, 0, sizeof s);
  CHECK(pc_elide_views(g, &s) == PTERA_OK && s.elided_views == 0);
  CHECK(strcmp(g->nodes[1].op, "aten::view_copy.out") == 0);
  pc_graph_free(g);
  /* the view is a method output */
  g = view_graph(false, true);
  memset(&s, 0, sizeof s);
  CHECK(pc_elide_views(g, &s) == PTERA_OK && s.elided_views == 0);
  pc_graph_free(g);
  /* a view of a BUFFER (mutable state): never */
  g = pc_graph_new(NULL, "forward");
  static const float z[4] = {0};
  int32_t buf = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, IDS(4), PC_T_BUFFER, z, 16, "buf");
  int32_t v = f22(g), x = f22(g), y = f22(g);
  int32_t size = pc_graph_ints(g, (const int64_t[]){2, 2}, 2);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_call(g, "aten::view_copy.out", IDS(buf, size, v), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::mul.out", IDS(v, x, y), W(0, 0, 1), 3);
  pc_graph_set_outputs(g, &y, 1);
  memset(&s, 0, sizeof s);
  CHECK(pc_elide_views(g, &s) == PTERA_OK && s.elided_views == 0);
  pc_graph_free(g);
  /* a dynamic-shape input */
  g = pc_graph_new(NULL, "forward");
  x = f4(g);
  g->values[x].u.t.dynamism = 1;
  v = f22(g), y = f22(g);
  size = pc_graph_ints(g, (const int64_t[]){2, 2}, 2);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_call(g, "aten::view_copy.out", IDS(x, size, v), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::mul.out", IDS(v, v, y), W(0, 0, 1), 3);
  pc_graph_set_outputs(g, &y, 1);
  memset(&s, 0, sizeof s);
  CHECK(pc_elide_views(g, &s) == PTERA_OK && s.elided_views == 0);
  pc_graph_free(g);
}

/*  n0 a = relu(x)                              x: [1, 4] (broadcast: [2, 4])
 *  n1 v = expand_copy(a, [1, 1, 4] or [2, 4])   -> et_view when v has a's numel
 *  n2 y = mul(v, v)
 * With x = {-1, 2, -3, 4}: y = {0, 4, 0, 16} (twice when broadcast). */
static pc_graph *expand_graph(bool broadcast) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(1, 4), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t a = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(1, 4), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t v = broadcast ? pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(2, 4), PC_T_ACTIVATION, NULL, 0, NULL)
                        : pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 3, IDS(1, 1, 4), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t y = broadcast ? pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(2, 4), PC_T_ACTIVATION, NULL, 0, NULL)
                        : pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 3, IDS(1, 1, 4), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t size = broadcast ? pc_graph_ints(g, (const int64_t[]){2, 4}, 2)
                           : pc_graph_ints(g, (const int64_t[]){1, 1, 4}, 3);
  int32_t no = pc_graph_bool(g, false);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_call(g, "aten::relu.out", IDS(x, a), W(0, 1), 2);
  pc_graph_call(g, "aten::expand_copy.out", IDS(a, size, no, v), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::mul.out", IDS(v, v, y), W(0, 0, 1), 3);
  pc_graph_set_outputs(g, &y, 1);
  return g;
}

static void test_expand(void) {
  for (int broadcast = 0; broadcast < 2; broadcast++) {
    pc_graph *g = expand_graph(broadcast);
    pc_compile_options o = cu_options(PC_BACKEND_NONE);
    o.weight_keys = PC_WEIGHT_KEYS_FQN;
    pc_compile_result r;
    if (!cu_compile(g, &o, &r)) {
      pc_graph_free(g);
      continue;
    }
    CHECK(r.methods[0].passes.elided_views == (broadcast ? 0u : 1u));
    ptera_program *prog;
    ptera_method *m;
    const float x[4] = {-1, 2, -3, 4}, want[4] = {0, 4, 0, 16};
    const ptera_tensor *y = cu_run_forward(&r, x, 2, IDS(1, 4), broadcast ? 8 : 4, &prog, &m);
    if (y)
      for (size_t i = 0; i < y->numel; i++) CHECK(((const float *)y->data)[i] == want[i % 4]);
    ptera_method_destroy(m);
    ptera_program_destroy(prog);
    pc_compile_result_free(&r);
    pc_graph_free(g);
  }
}

/* Compiles, loads and runs view_graph(inplace_after) with or without the
 * pass and checks output 0. */
static void run(bool inplace_after, bool no_views, const float *want) {
  pc_graph *g = view_graph(inplace_after, false);
  pc_compile_options o = cu_options(PC_BACKEND_NONE);
  o.no_views = no_views;
  o.weight_keys = PC_WEIGHT_KEYS_FQN;
  pc_compile_result r;
  if (!cu_compile(g, &o, &r)) {
    pc_graph_free(g);
    return;
  }
  CHECK(r.methods[0].passes.elided_views == (no_views || inplace_after ? 0u : 1u));
  ptera_program *prog;
  ptera_method *m;
  const float x[4] = {-1, 2, -3, 4};
  const ptera_tensor *y = cu_run_forward(&r, x, 1, IDS(4), 4, &prog, &m);
  if (y)
    for (int i = 0; i < 4; i++) CHECK(((const float *)y->data)[i] == want[i]);
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  pc_compile_result_free(&r);
  pc_graph_free(g);
}

int main(void) {
  test_rewrite();
  test_kept();
  static const float want[4] = {0, 4, 0, 16};
  run(false, false, want);
  run(false, true, want);
  run(true, false, want); /* the copy is kept: y was computed before a += a */
  test_expand();
  return check_summary("view_elide");
}

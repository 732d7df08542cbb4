/* The quantizers' scope by module (compiler/quant_scope.h) on a hand-built
 * graph: which calls a name or a type covers (a name covers the modules
 * inside it, "layers.0" not "layers.01"), skip over scope, the check that
 * every entry covers a call and its messages, and which values are
 * foreign: made out of scope, or by a non-anchor call reading one. */
#include <string.h>

#include "check.h"
#include "quant_scope.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W2 ((const uint8_t[]){0, 1})
#define W4 ((const uint8_t[]){0, 0, 0, 1})

static const float wdata[4] = {1, 2, 3, 4};

/* x -> [layers.0.fc] linear -> a ; x -> [layers.01] relu -> b ;
 * [root] add(a, b) -> c ; [head: Seq > head.0: Linear] linear(c) -> d ;
 * [root] relu(b) -> e */
typedef struct fixture {
  pc_graph *g;
  int32_t x, a, b, c, d, e;
  uint32_t n_fc, n_relu, n_add, n_head, n_relu2;
} fixture;

static void build(fixture *f) {
  pc_graph *g = f->g = pc_graph_new(NULL, "forward");
  int32_t s[2] = {2, 2};
  f->x = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s, PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t w = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s, PC_T_CONST, wdata, sizeof wdata, "w");
  int32_t none = pc_graph_none(g);
  int32_t *outs[5] = {&f->a, &f->b, &f->c, &f->d, &f->e};
  for (int i = 0; i < 5; i++)
    *outs[i] = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, s, PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t alpha = pc_graph_int(g, 1);
  f->n_fc = (uint32_t)pc_graph_call(g, "aten::linear.out", IDS(f->x, w, none, f->a), W4, 4);
  f->n_relu = (uint32_t)pc_graph_call(g, "aten::relu.out", IDS(f->x, f->b), W2, 2);
  f->n_add = (uint32_t)pc_graph_call(g, "aten::add.out", IDS(f->a, f->b, alpha, f->c),
                                     W4, 4);
  f->n_head = (uint32_t)pc_graph_call(g, "aten::linear.out", IDS(f->c, w, none, f->d), W4, 4);
  f->n_relu2 = (uint32_t)pc_graph_call(g, "aten::relu.out", IDS(f->b, f->e), W2, 2);
  const pc_gscope fc[2] = {{"layers", "ModuleList"}, {"layers.0.fc", "Linear"}};
  const pc_gscope relu[1] = {{"layers.01", "ReLU"}};
  const pc_gscope head[2] = {{"head", "Sequential"}, {"head.0", "Linear"}};
  CHECK(pc_graph_set_scope(g, f->n_fc, fc, 2) == PTERA_OK);
  CHECK(pc_graph_set_scope(g, f->n_relu, relu, 1) == PTERA_OK);
  CHECK(pc_graph_set_scope(g, f->n_head, head, 2) == PTERA_OK);
  CHECK(g->err.status == PTERA_OK);
}

static bool in(const fixture *f, const char *const *only, uint32_t nonly, const char *const *skip,
               uint32_t nskip, uint32_t node) {
  pc_qscope s = {only, nonly, skip, nskip};
  return pc_qscope_in(&s, &f->g->nodes[node]);
}

static void test_matching(void) {
  fixture f;
  build(&f);
  const char *layers0[] = {"layers.0"}, *layers[] = {"layers"}, *lin[] = {"type:Linear"},
             *seq[] = {"type:Sequential"}, *head0[] = {"head.0"}, *fcname[] = {"layers.0.fc"};
  /* no entries: everything */
  CHECK(!pc_qscope_any(NULL) && pc_qscope_in(NULL, &f.g->nodes[f.n_add]));
  CHECK(in(&f, NULL, 0, NULL, 0, f.n_add));
  /* a name covers itself and what is inside it, not a longer sibling */
  CHECK(in(&f, layers0, 1, NULL, 0, f.n_fc) && !in(&f, layers0, 1, NULL, 0, f.n_relu));
  CHECK(in(&f, fcname, 1, NULL, 0, f.n_fc));
  CHECK(in(&f, layers, 1, NULL, 0, f.n_fc) && in(&f, layers, 1, NULL, 0, f.n_relu));
  /* the root's calls are under no name */
  CHECK(!in(&f, layers0, 1, NULL, 0, f.n_add) && in(&f, NULL, 0, layers0, 1, f.n_add));
  /* a type covers a call with a module of that class anywhere in its stack */
  CHECK(in(&f, lin, 1, NULL, 0, f.n_fc) && in(&f, lin, 1, NULL, 0, f.n_head));
  CHECK(!in(&f, lin, 1, NULL, 0, f.n_relu) && in(&f, seq, 1, NULL, 0, f.n_head));
  CHECK(!in(&f, seq, 1, NULL, 0, f.n_fc));
  /* skip wins over scope */
  CHECK(!in(&f, lin, 1, head0, 1, f.n_head) && in(&f, lin, 1, head0, 1, f.n_fc));
  pc_graph_free(f.g);
}

static void test_check(void) {
  fixture f;
  build(&f);
  pc_graph *const methods[1] = {f.g};
  pt_err e;
  const char *ok[] = {"layers.0", "type:ReLU", "head"}, *bad[] = {"layers.0", "layers.1"},
             *badtype[] = {"type:Conv2d"}, *empty[] = {"type:"};
  pc_qscope s = {ok, 3, ok, 1};
  CHECK(pc_qscope_check(&s, methods, 1, &e) == PTERA_OK);
  s = (pc_qscope){bad, 2, NULL, 0};
  CHECK(pc_qscope_check(&s, methods, 1, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(e.msg, "quantization scope: 'layers.1' names no module") != NULL);
  s = (pc_qscope){NULL, 0, badtype, 1};
  CHECK(pc_qscope_check(&s, methods, 1, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(e.msg, "quantization skip list: 'type:Conv2d'") != NULL &&
        strstr(e.msg, "a module of type 'Conv2d'") != NULL);
  s = (pc_qscope){empty, 1, NULL, 0};
  CHECK(pc_qscope_check(&s, methods, 1, &e) == PTERA_INVALID_ARGUMENT);
  /* a graph that records no module says so */
  for (uint32_t k = 0; k < f.g->nnodes; k++) f.g->nodes[k].nscope = 0;
  s = (pc_qscope){ok, 1, NULL, 0};
  CHECK(pc_qscope_check(&s, methods, 1, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(e.msg, "records no module for any call") != NULL);
  pc_graph_free(f.g);
}

static void test_foreign(void) {
  fixture f;
  build(&f);
  uint8_t foreign[16];
  CHECK(f.g->nvalues <= sizeof foreign);
  /* no scope: nothing foreign */
  pc_qscope_foreign(f.g, foreign);
  for (uint32_t v = 0; v < f.g->nvalues; v++) CHECK(!foreign[v]);
  /* skip layers.01 (the relu): b foreign, so the root's add (c) and relu
   * (e) that read it; the head's linear is an anchor in scope: d is not */
  const char *skip[] = {"layers.01"};
  pc_qscope s = {NULL, 0, skip, 1};
  f.g->qscope = &s;
  pc_qscope_foreign(f.g, foreign);
  CHECK(!foreign[f.x] && !foreign[f.a] && foreign[f.b] && foreign[f.c] && !foreign[f.d] &&
        foreign[f.e]);
  /* only the head in scope: every value the root and layers write is foreign,
   * the head's own output is not */
  const char *only[] = {"head"};
  s = (pc_qscope){only, 1, NULL, 0};
  pc_qscope_foreign(f.g, foreign);
  CHECK(!foreign[f.x] && foreign[f.a] && foreign[f.b] && foreign[f.c] && !foreign[f.d] &&
        foreign[f.e]);
  CHECK(pc_qscope_anchor(f.g, &f.g->nodes[f.n_head]) && !pc_qscope_anchor(f.g, &f.g->nodes[f.n_add]));
  f.g->qscope = NULL;
  pc_graph_free(f.g);
}

int main(void) {
  test_matching();
  test_check();
  test_foreign();
  return check_summary("quant_scope");
}

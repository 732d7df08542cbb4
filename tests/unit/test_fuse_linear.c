/* pc_fuse_linear on hand-built graphs: which products become linear where the
 * op set has it, what the transposes become where it has not, and the values
 * a fused (then folded) product computes, checked by hand. */
#include "passes.h"
#include "check.h"
#include "compile_util.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W(...) ((const uint8_t[]){__VA_ARGS__})


/* W [3,2] = [[1,2],[3,4],[5,6]], x [1,2] = [1,-1], b = [10,20,30]:
 * x W^T = [-1,-1,-1]; + b = [9,19,29]. */
static const float wd[] = {1, 2, 3, 4, 5, 6}, xd[] = {1, -1}, bd[] = {10, 20, 30};

enum { T_COPY, PERMUTE, TRANSPOSE, PERMUTE_ID };

static int32_t transpose(pc_graph *g, int how, int32_t w, int32_t t) {
  switch (how) {
    case T_COPY: return pc_graph_call(g, "aten::t_copy.out", IDS(w, t), W(0, 1), 2);
    case PERMUTE:
    case PERMUTE_ID: {
      int32_t dims = pc_graph_ints(g, how == PERMUTE ? (const int64_t[]){1, 0}
                                                     : (const int64_t[]){0, 1}, 2);
      return pc_graph_call(g, "aten::permute_copy.out", IDS(w, dims, t), W(0, 0, 1), 3);
    }
    default: {
      int32_t d0 = pc_graph_int(g, -1), d1 = pc_graph_int(g, -2);
      return pc_graph_call(g, "aten::transpose_copy.int_out", IDS(w, d0, d1, t), W(0, 0, 0, 1),
                           4);
    }
  }
}

static bool floats_are(const pc_gtensor *t, const float *want, size_t n) {
  if (t->store != PC_T_CONST || t->nbytes != n * sizeof(float)) return false;
  return memcmp(t->data, want, n * sizeof(float)) == 0;
}

/* y = mm(x, t(W)) for each way of writing the transpose; x constant so that
 * constprop can then evaluate the fused call. */
static void test_mm(void) {
  for (int how = T_COPY; how <= PERMUTE_ID; how++) {
    pc_graph *g = pc_graph_new(NULL, "forward");
    CHECK(g != NULL);
    g->opset = how == T_COPY ? PC_OPSET_EXECUTORCH_OPTIMIZED : PC_OPSET_PTERA;
    int32_t w = cu_fconst(g, 2, IDS(3, 2), wd, 6), x = cu_fconst(g, 2, IDS(1, 2), xd, 2);
    int32_t t = cu_fact(g, 2, how == PERMUTE_ID ? IDS(3, 2) : IDS(2, 3));
    int32_t y = cu_fact(g, 2, IDS(1, 3)), z = cu_fact(g, 2, IDS(1, 3)), in = cu_fact(g, 2, IDS(1, 3));
    int32_t one = pc_graph_int(g, 1);
    CHECK(transpose(g, how, w, t) == 0);
    CHECK(pc_graph_call(g, "aten::mm.out", IDS(x, t, y), W(0, 0, 1), 3) == 1);
    CHECK(pc_graph_call(g, "aten::add.out", IDS(in, y, one, z), W(0, 0, 0, 1), 4) == 2);
    CHECK(pc_graph_set_inputs(g, &in, 1) == PTERA_OK);
    CHECK(pc_graph_set_outputs(g, &z, 1) == PTERA_OK);
    pc_pass_stats st = {0};
    CHECK(pc_fuse_linear(g, &st) == PTERA_OK);
    const pc_gnode *n = &g->nodes[1];
    if (how == PERMUTE_ID) {
      CHECK(st.fused_nodes == 0 && strcmp(n->op, "aten::mm.out") == 0);
      pc_graph_free(g);
      continue;
    }
    CHECK(st.fused_nodes == 1);
    CHECK(strcmp(n->op, "aten::linear.out") == 0 && n->nargs == 4);
    CHECK(n->args[0] == x && n->args[1] == w && n->args[3] == y);
    CHECK(g->values[n->args[2]].kind == PC_G_NONE);
    CHECK(!n->writes[0] && !n->writes[1] && !n->writes[2] && n->writes[3]);
    /* The transpose is now dead; the fused call computes x W^T. */
    CHECK(pc_dce(g, &st) == PTERA_OK && g->nodes[0].removed && st.removed_nodes == 1);
    CHECK(pc_constprop(g, &st) == PTERA_OK && g->nodes[1].removed);
    CHECK(floats_are(&g->values[y].u.t, (const float[]){-1, -1, -1}, 3));
    pc_graph_free(g);
  }
}

/* addmm(b, x, t(W), beta, alpha): fused only for beta = alpha = 1 and b of
 * rank 1. */
static void test_addmm(void) {
  struct { double beta; int bias_rank; bool fuse; } cases[] = {
      {1, 1, true}, {2, 1, false}, {1, 2, false}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    pc_graph *g = pc_graph_new(NULL, "forward");
    CHECK(g != NULL);
    g->opset = PC_OPSET_PTERA;
    int32_t w = cu_fconst(g, 2, IDS(3, 2), wd, 6), x = cu_fconst(g, 2, IDS(1, 2), xd, 2);
    int32_t b = cases[c].bias_rank == 1 ? cu_fconst(g, 1, IDS(3), bd, 3)
                                        : cu_fconst(g, 2, IDS(1, 3), bd, 3);
    int32_t t = cu_fact(g, 2, IDS(2, 3)), y = cu_fact(g, 2, IDS(1, 3));
    int32_t beta = pc_graph_double(g, cases[c].beta), alpha = pc_graph_int(g, 1);
    CHECK(transpose(g, T_COPY, w, t) == 0);
    CHECK(pc_graph_call(g, "aten::addmm.out", IDS(b, x, t, beta, alpha, y), W(0, 0, 0, 0, 0, 1),
                        6) == 1);
    CHECK(pc_graph_set_inputs(g, NULL, 0) == PTERA_OK);
    CHECK(pc_graph_set_outputs(g, NULL, 0) == PTERA_OK);
    pc_pass_stats st = {0};
    CHECK(pc_fuse_linear(g, &st) == PTERA_OK);
    CHECK(st.fused_nodes == (cases[c].fuse ? 1u : 0u));
    const pc_gnode *n = &g->nodes[1];
    if (cases[c].fuse) {
      CHECK(strcmp(n->op, "aten::linear.out") == 0 && n->args[0] == x && n->args[1] == w &&
            n->args[2] == b && n->args[3] == y);
      CHECK(pc_constprop(g, &st) == PTERA_OK);
      CHECK(floats_are(&g->values[y].u.t, (const float[]){9, 19, 29}, 3));
    } else {
      CHECK(strcmp(n->op, "aten::addmm.out") == 0 && n->nargs == 6);
    }
    pc_graph_free(g);
  }
}

/* A weight written in place after the transpose is not read directly. */
static void test_mutated_weight(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  CHECK(g != NULL);
  int32_t w = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(3, 2), PC_T_BUFFER, wd, sizeof wd,
                              "w");
  int32_t x = cu_fact(g, 2, IDS(1, 2)), t = cu_fact(g, 2, IDS(2, 3)), y = cu_fact(g, 2, IDS(1, 3));
  int32_t one = pc_graph_int(g, 1);
  CHECK(transpose(g, T_COPY, w, t) == 0);
  CHECK(pc_graph_call(g, "aten::add.out", IDS(w, w, one, w), W(0, 0, 0, 1), 4) == 1);
  CHECK(pc_graph_call(g, "aten::mm.out", IDS(x, t, y), W(0, 0, 1), 3) == 2);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK);
  CHECK(pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
  pc_pass_stats st = {0};
  CHECK(pc_fuse_linear(g, &st) == PTERA_OK && st.fused_nodes == 0);
  CHECK(strcmp(g->nodes[2].op, "aten::mm.out") == 0);
  pc_graph_free(g);
}

/* executorch-portable (the default): no linear. A constant W becomes the
 * constant W^T (W [3,2] = [[1,2],[3,4],[5,6]] -> [[1,3,5],[2,4,6]]) and the
 * transpose goes; a W replaceable by name is transposed at run time with
 * permute_copy(W, [1, 0]); an activation's transpose stays as it is. */
static void test_portable(void) {
  enum { EMBEDDED, NAMED, ACTIVATION };
  for (int kind = EMBEDDED; kind <= ACTIVATION; kind++) {
    for (int how = T_COPY; how <= TRANSPOSE; how++) {
      pc_graph *g = pc_graph_new(NULL, "forward");
      CHECK(g != NULL && g->opset == PC_OPSET_EXECUTORCH_PORTABLE);
      g->named_consts_replaceable = kind == NAMED;
      int32_t w = kind == ACTIVATION ? cu_fact(g, 2, IDS(3, 2))
                                     : pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(3, 2),
                                                       PC_T_CONST, wd, sizeof wd, "fc.weight");
      int32_t b = cu_fconst(g, 1, IDS(3), bd, 3), x = cu_fact(g, 2, IDS(1, 2));
      int32_t t = cu_fact(g, 2, IDS(2, 3)), y = cu_fact(g, 2, IDS(1, 3)), y2 = cu_fact(g, 2, IDS(1, 3));
      int32_t one = pc_graph_int(g, 1);
      CHECK(transpose(g, how, w, t) == 0);
      CHECK(pc_graph_call(g, "aten::addmm.out", IDS(b, x, t, one, one, y), W(0, 0, 0, 0, 0, 1),
                          6) == 1);
      CHECK(pc_graph_call(g, "aten::mm.out", IDS(x, t, y2), W(0, 0, 1), 3) == 2);
      int32_t ins[] = {x, w};
      CHECK(pc_graph_set_inputs(g, ins, kind == ACTIVATION ? 2 : 1) == PTERA_OK);
      CHECK(pc_graph_set_outputs(g, IDS(y, y2), 2) == PTERA_OK);
      pc_pass_stats st = {0};
      CHECK(pc_fuse_linear(g, &st) == PTERA_OK && st.fused_nodes == 0);
      CHECK(strcmp(g->nodes[1].op, "aten::addmm.out") == 0 && g->nodes[1].args[2] == t);
      CHECK(strcmp(g->nodes[2].op, "aten::mm.out") == 0 && g->nodes[2].args[1] == t);
      const pc_gnode *n = &g->nodes[0];
      const pc_gtensor *tt = &g->values[t].u.t;
      if (kind == EMBEDDED) {
        CHECK(st.transposed_constants == 1 && n->removed);
        CHECK(floats_are(tt, (const float[]){1, 3, 5, 2, 4, 6}, 6) && tt->fqn == NULL);
        CHECK(tt->sizes[0] == 2 && tt->sizes[1] == 3);
      } else if (kind == NAMED) {
        CHECK(st.transposed_constants == 0 && !n->removed && tt->store == PC_T_ACTIVATION);
        CHECK(strcmp(n->op, "aten::permute_copy.out") == 0 && n->nargs == 3);
        CHECK(n->args[0] == w && n->args[2] == t && n->writes[2] && !n->writes[0]);
        const pc_gvalue *dims = &g->values[n->args[1]];
        CHECK(dims->kind == PC_G_INTS && dims->u.ints.len == 2 && dims->u.ints.items[0] == 1 &&
              dims->u.ints.items[1] == 0);
      } else {
        CHECK(st.transposed_constants == 0 && !n->removed && tt->store == PC_T_ACTIVATION);
        CHECK(strcmp(n->op, how == T_COPY ? "aten::t_copy.out"
                            : how == PERMUTE ? "aten::permute_copy.out"
                                             : "aten::transpose_copy.int_out") == 0);
      }
      pc_graph_free(g);
    }
  }
}

int main(void) {
  test_mm();
  test_addmm();
  test_mutated_weight();
  test_portable();
  return check_summary("fuse_linear");
}

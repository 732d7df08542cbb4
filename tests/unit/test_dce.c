/* pc_dce on hand-built graphs; which nodes survive is worked out by hand in
 * the comments. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "graph.h"
#include "passes.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W(...) ((const uint8_t[]){__VA_ARGS__})

static int32_t fact(pc_graph *g) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, IDS(4), PC_T_ACTIVATION, NULL, 0, NULL);
}

/*  n0  a = x + c            dead: only n1 reads a
 *  n1  b = a * c            dead: nothing reads b
 *  n2  e = x + c            live: feeds n3
 *  n3  f = e * c            live: method output
 *  n4  t = x + x            live: n5 reads it
 *  n5  copy_(buf, t)        live: writes a BUFFER
 *  n6  begin no_grad
 *  n7  d = x + c            dead
 *  n8  end                  (n6..n8 go: the region holds nothing live)
 *  n9  begin autocast
 *  n10 h = x * c            live: output (list item)
 *  n11 end                  kept
 *  n12 begin no_grad, n13 begin autocast, n14 dead, n15 end, n16 end: all go
 *  n17 v = et_view(buf2)    live: n18 reads v
 *  n18 v += c (in place)    live: v aliases BUFFER buf2
 *  n19 k = x + c            live: n20 reads k
 *  n20 c += k (in place)    live: writes a CONST
 *  n21 check(x)             kept: writes nothing
 *  n22 p = x + c            live: read in place by n23 (which is live)
 *  n23 p += c, written into x (an input) via out=x: live */
static void test_dce(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float d[] = {1, 2, 3, 4};
  int32_t c = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, IDS(4), PC_T_CONST, d, 16, "c");
  int32_t buf = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, IDS(4), PC_T_BUFFER, d, 16, "buf");
  int32_t buf2 = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, IDS(4), PC_T_BUFFER, d, 16, "buf2");
  int32_t x = fact(g), a = fact(g), b = fact(g), e = fact(g), f = fact(g), t = fact(g);
  int32_t dd = fact(g), h = fact(g), q = fact(g), v = fact(g), k = fact(g), p = fact(g);
  int32_t alpha = pc_graph_int(g, 1), nb = pc_graph_bool(g, false);
  int32_t sz = pc_graph_ints(g, (const int64_t[]){4}, 1);
  int32_t hl = pc_graph_tensor_list(g, IDS(h), 1, false);
  pc_graph_call(g, "aten::add.out", IDS(x, c, alpha, a), W(0, 0, 0, 1), 4);       /* n0 */
  pc_graph_call(g, "aten::mul.out", IDS(a, c, b), W(0, 0, 1), 3);                 /* n1 */
  pc_graph_call(g, "aten::add.out", IDS(x, c, alpha, e), W(0, 0, 0, 1), 4);       /* n2 */
  pc_graph_call(g, "aten::mul.out", IDS(e, c, f), W(0, 0, 1), 3);                 /* n3 */
  pc_graph_call(g, "aten::add.out", IDS(x, x, alpha, t), W(0, 0, 0, 1), 4);       /* n4 */
  pc_graph_call(g, "aten::copy_", IDS(buf, t, nb), W(1, 0, 0), 3);                /* n5 */
  pc_graph_region(g, true, "no_grad");                                            /* n6 */
  pc_graph_call(g, "aten::add.out", IDS(x, c, alpha, dd), W(0, 0, 0, 1), 4);      /* n7 */
  pc_graph_region(g, false, NULL);                                                /* n8 */
  pc_graph_region(g, true, "autocast");                                           /* n9 */
  pc_graph_call(g, "aten::mul.out", IDS(x, c, h), W(0, 0, 1), 3);                 /* n10 */
  pc_graph_region(g, false, NULL);                                                /* n11 */
  pc_graph_region(g, true, "no_grad");                                            /* n12 */
  pc_graph_region(g, true, "autocast");                                           /* n13 */
  pc_graph_call(g, "aten::mul.out", IDS(x, x, q), W(0, 0, 1), 3);                 /* n14 */
  pc_graph_region(g, false, NULL);                                                /* n15 */
  pc_graph_region(g, false, NULL);                                                /* n16 */
  pc_graph_call(g, "executorch_prim::et_view.default", IDS(buf2, sz, v), W(0, 0, 1), 3); /* n17 */
  CHECK(pc_graph_alias(g, v, buf2) == PTERA_OK);
  pc_graph_call(g, "aten::add.out", IDS(v, c, alpha, v), W(0, 0, 0, 1), 4);       /* n18 */
  pc_graph_call(g, "aten::add.out", IDS(x, c, alpha, k), W(0, 0, 0, 1), 4);       /* n19 */
  pc_graph_call(g, "aten::add.out", IDS(c, k, alpha, c), W(0, 0, 0, 1), 4);       /* n20 */
  pc_graph_call(g, "aten::_assert_tensor_metadata", IDS(x), NULL, 1);             /* n21 */
  pc_graph_call(g, "aten::add.out", IDS(x, c, alpha, p), W(0, 0, 0, 1), 4);       /* n22 */
  pc_graph_call(g, "aten::add.out", IDS(p, c, alpha, x), W(0, 0, 0, 1), 4);       /* n23 */
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, IDS(f, hl), 2);
  CHECK(g->nnodes == 24);

  pc_pass_stats st = {0};
  CHECK(pc_dce(g, &st) == PTERA_OK);
  /* Calls removed: n0, n1, n7, n14. */
  CHECK(st.removed_nodes == 4);
  static const bool want_removed[24] = {
      1, 1, 0, 0, 0, 0,       /* n0..n5 */
      1, 1, 1,                /* n6..n8: dead region and its call */
      0, 0, 0,                /* n9..n11 */
      1, 1, 1, 1, 1,          /* n12..n16: nested dead regions */
      0, 0, 0, 0, 0, 0, 0};   /* n17..n23 */
  for (uint32_t i = 0; i < 24; i++) {
    if (g->nodes[i].removed != want_removed[i]) printf("node %u: removed=%d\n", i, g->nodes[i].removed);
    CHECK(g->nodes[i].removed == want_removed[i]);
  }
  /* Idempotent. */
  pc_pass_stats st2 = {0};
  CHECK(pc_dce(g, &st2) == PTERA_OK && st2.removed_nodes == 0);
  CHECK(pc_dce(g, NULL) == PTERA_OK);
  pc_graph_free(g);
}

/* A region holding a live call inside a nested dead one: the outer pair
 * stays, the inner goes.
 *  n0 begin no_grad; n1 y = x*x (output); n2 begin autocast; n3 dead; n4 end;
 *  n5 end.  Also an unbalanced end (n6) is left alone. */
static void test_nested_regions(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = fact(g), y = fact(g), z = fact(g);
  pc_graph_region(g, true, "no_grad");
  pc_graph_call(g, "aten::mul.out", IDS(x, x, y), W(0, 0, 1), 3);
  pc_graph_region(g, true, "autocast");
  pc_graph_call(g, "aten::mul.out", IDS(y, y, z), W(0, 0, 1), 3);
  pc_graph_region(g, false, NULL);
  pc_graph_region(g, false, NULL);
  pc_graph_region(g, false, NULL);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  pc_pass_stats st = {0};
  CHECK(pc_dce(g, &st) == PTERA_OK);
  CHECK(st.removed_nodes == 1);
  CHECK(!g->nodes[0].removed && !g->nodes[1].removed);
  CHECK(g->nodes[2].removed && g->nodes[3].removed && g->nodes[4].removed);
  CHECK(!g->nodes[5].removed && !g->nodes[6].removed);
  pc_graph_free(g);
}

int main(void) {
  test_dce();
  test_nested_regions();
  return check_summary("dce");
}

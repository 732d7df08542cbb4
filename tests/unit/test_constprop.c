/* pc_constprop on small hand-built graphs. Every expected value is computed
 * by hand in the comments next to it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_util.h"
#include "graph.h"
#include "passes.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W(...) ((const uint8_t[]){__VA_ARGS__})
#define NARGS(...) ((uint32_t)(sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t)))

static const pc_gtensor *T(pc_graph *g, int32_t id) { return &g->values[id].u.t; }

static bool float_bytes_are(const pc_gtensor *t, const float *want, size_t n) {
  return t->nbytes == n * sizeof(float) && t->data && memcmp(t->data, want, t->nbytes) == 0;
}

/* (c1 + c2) * c3, viewed as [4], then added to an input:
 *   c1 = [[1,2],[3,4]], c2 = [[10,20],[30,40]] -> a = [[11,22],[33,44]]
 *   c3 = [[0.5,2],[-1,3]]                      -> b = [[5.5,44],[-33,132]]
 *   view_copy(b, [4])                          -> v = [5.5,44,-33,132]
 * The last add reads input x: it stays. */
static void test_chain(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  CHECK(g != NULL);
  const float d1[] = {1, 2, 3, 4}, d2[] = {10, 20, 30, 40}, d3[] = {0.5f, 2, -1, 3};
  int32_t c1 = cu_fconst(g, 2, IDS(2, 2), d1, 4);
  int32_t c2 = cu_fconst(g, 2, IDS(2, 2), d2, 4);
  int32_t c3 = cu_fconst(g, 2, IDS(2, 2), d3, 4);
  int32_t one = pc_graph_int(g, 1);
  int32_t shape = pc_graph_ints(g, (const int64_t[]){4}, 1);
  int32_t a = cu_fact(g, 2, IDS(2, 2)), b = cu_fact(g, 2, IDS(2, 2)), v = cu_fact(g, 1, IDS(4));
  int32_t x = cu_fact(g, 1, IDS(4)), y = cu_fact(g, 1, IDS(4));
  CHECK(pc_graph_call(g, "aten::add.out", IDS(c1, c2, one, a), W(0, 0, 0, 1), 4) == 0);
  CHECK(pc_graph_call(g, "aten::mul.out", IDS(a, c3, b), W(0, 0, 1), 3) == 1);
  CHECK(pc_graph_call(g, "aten::view_copy.out", IDS(b, shape, v), W(0, 0, 1), 3) == 2);
  CHECK(pc_graph_call(g, "aten::add.out", IDS(x, v, one, y), W(0, 0, 0, 1), 4) == 3);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK);
  CHECK(pc_graph_set_outputs(g, &y, 1) == PTERA_OK);

  pc_pass_stats st = {0};
  CHECK(pc_constprop(g, &st) == PTERA_OK);
  CHECK(st.folded_nodes == 3);
  CHECK(g->nodes[0].removed && g->nodes[1].removed && g->nodes[2].removed);
  CHECK(!g->nodes[3].removed);
  const float want_a[] = {11, 22, 33, 44}, want_b[] = {5.5f, 44, -33, 132};
  CHECK(T(g, a)->store == PC_T_CONST && float_bytes_are(T(g, a), want_a, 4));
  CHECK(T(g, b)->store == PC_T_CONST && float_bytes_are(T(g, b), want_b, 4));
  const pc_gtensor *tv = T(g, v);
  CHECK(tv->store == PC_T_CONST && tv->dim == 1 && tv->sizes[0] == 4);
  CHECK(tv->dynamism == PTERA_SHAPE_STATIC && tv->fqn == NULL);
  CHECK(float_bytes_are(tv, want_b, 4));
  CHECK(((uintptr_t)tv->data & 15) == 0);
  CHECK(T(g, y)->store == PC_T_ACTIVATION && T(g, y)->data == NULL);
  CHECK(T(g, x)->store == PC_T_ACTIVATION);
  /* The sources are untouched. */
  CHECK(float_bytes_are(T(g, c1), d1, 4) && float_bytes_are(T(g, c2), d2, 4));
  /* A second run finds nothing more. */
  pc_pass_stats st2 = {0};
  CHECK(pc_constprop(g, &st2) == PTERA_OK && st2.folded_nodes == 0);
  CHECK(pc_constprop(g, NULL) == PTERA_OK);
  pc_graph_free(g);
}

/* Tensor lists: cat([c1, c2], 0) folds, cat([c1, x], 0) does not; split_copy
 * writes a list of two outputs and both become constants.
 *   cat([1,2],[3,4,5]) = [1,2,3,4,5]; split([1,2,3,4,5], 2) = [1,2],[3,4],[5] */
static void test_lists(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float d1[] = {1, 2}, d2[] = {3, 4, 5};
  int32_t c1 = cu_fconst(g, 1, IDS(2), d1, 2);
  int32_t c2 = cu_fconst(g, 1, IDS(3), d2, 3);
  int32_t x = cu_fact(g, 1, IDS(3));
  int32_t zero = pc_graph_int(g, 0), two = pc_graph_int(g, 2);
  int32_t l1 = pc_graph_tensor_list(g, IDS(c1, c2), 2, false);
  int32_t l2 = pc_graph_tensor_list(g, IDS(c1, x), 2, false);
  int32_t cat1 = cu_fact(g, 1, IDS(5)), cat2 = cu_fact(g, 1, IDS(5));
  int32_t s0 = cu_fact(g, 1, IDS(2)), s1 = cu_fact(g, 1, IDS(2)), s2 = cu_fact(g, 1, IDS(1));
  int32_t outs = pc_graph_tensor_list(g, IDS(s0, s1, s2), 3, false);
  int32_t y = cu_fact(g, 1, IDS(5)), one = pc_graph_int(g, 1);
  pc_graph_call(g, "aten::cat.out", IDS(l1, zero, cat1), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::cat.out", IDS(l2, zero, cat2), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::split_copy.Tensor_out", IDS(cat1, two, zero, outs), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::add.out", IDS(cat2, cat1, one, y), W(0, 0, 0, 1), 4);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, IDS(y), 1);
  pc_pass_stats st = {0};
  CHECK(pc_constprop(g, &st) == PTERA_OK);
  CHECK(st.folded_nodes == 2);
  CHECK(g->nodes[0].removed && !g->nodes[1].removed && g->nodes[2].removed &&
        !g->nodes[3].removed);
  const float want_cat[] = {1, 2, 3, 4, 5};
  CHECK(T(g, cat1)->store == PC_T_CONST && float_bytes_are(T(g, cat1), want_cat, 5));
  CHECK(T(g, cat2)->store == PC_T_ACTIVATION);
  const float w0[] = {1, 2}, w1[] = {3, 4}, w2[] = {5};
  CHECK(T(g, s0)->store == PC_T_CONST && float_bytes_are(T(g, s0), w0, 2));
  CHECK(T(g, s1)->store == PC_T_CONST && float_bytes_are(T(g, s1), w1, 2));
  CHECK(T(g, s2)->store == PC_T_CONST && float_bytes_are(T(g, s2), w2, 1));
  CHECK(T(g, s2)->dim == 1 && T(g, s2)->sizes[0] == 1);
  pc_graph_free(g);
}

enum { INPLACE_VIEW = 1, INPLACE_DIRECT = 2, IN_REGIONS = 4 };

/* c = [1,2,3,4]; c2 = [10,20,30,40]. Optionally c is written in place (through
 * an et_view alias, or directly), optionally inside no_grad + autocast
 * regions; then y = x * c and z = c + c2. z may fold only when nothing writes
 * c: then z = [11,22,33,44]. */
static void run_inplace_case(unsigned mode) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float dc[] = {1, 2, 3, 4}, dc2[] = {10, 20, 30, 40}, dones[] = {1, 1, 1, 1};
  int32_t c = cu_fconst(g, 1, IDS(4), dc, 4);
  int32_t c2 = cu_fconst(g, 1, IDS(4), dc2, 4);
  int32_t ones = cu_fconst(g, 2, IDS(2, 2), dones, 4);
  int32_t alpha = pc_graph_int(g, 1);
  int32_t sizes = pc_graph_ints(g, (const int64_t[]){2, 2}, 2);
  int32_t v = cu_fact(g, 2, IDS(2, 2));
  int32_t x = cu_fact(g, 1, IDS(4)), y = cu_fact(g, 1, IDS(4)), z = cu_fact(g, 1, IDS(4));
  int32_t w = cu_fact(g, 1, IDS(4));
  const uint8_t *data_before = T(g, c)->data;
  uint32_t ncalls = 0;
  if (mode & IN_REGIONS) {
    pc_graph_region(g, true, "no_grad");
    pc_graph_region(g, true, "autocast");
  }
  if (mode & INPLACE_VIEW) {
    pc_graph_call(g, "executorch_prim::et_view.default", IDS(c, sizes, v), W(0, 0, 1), 3);
    CHECK(pc_graph_alias(g, v, c) == PTERA_OK);
    pc_graph_call(g, "aten::add.out", IDS(v, ones, alpha, v), W(0, 0, 0, 1), 4);
    ncalls += 2;
  }
  if (mode & INPLACE_DIRECT) {
    pc_graph_call(g, "aten::add.out", IDS(c, c2, alpha, c), W(0, 0, 0, 1), 4);
    ncalls += 1;
  }
  if (mode & IN_REGIONS) {
    pc_graph_region(g, false, NULL);
    pc_graph_region(g, false, NULL);
  }
  int32_t ny = pc_graph_call(g, "aten::mul.out", IDS(x, c, y), W(0, 0, 1), 3);
  int32_t nz = pc_graph_call(g, "aten::add.out", IDS(c, c2, alpha, z), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::add.out", IDS(z, y, alpha, w), W(0, 0, 0, 1), 4);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &w, 1);

  pc_pass_stats st = {0};
  CHECK(pc_constprop(g, &st) == PTERA_OK);
  bool writes_c = (mode & (INPLACE_VIEW | INPLACE_DIRECT)) != 0;
  if (writes_c) {
    CHECK(st.folded_nodes == 0);
    for (uint32_t k = 0; k < g->nnodes; k++) CHECK(!g->nodes[k].removed);
    CHECK(T(g, z)->store == PC_T_ACTIVATION && T(g, z)->data == NULL);
    CHECK(T(g, v)->store == PC_T_ACTIVATION);
  } else {
    const float want_z[] = {11, 22, 33, 44};
    CHECK(st.folded_nodes == 1);
    CHECK(g->nodes[nz].removed);
    CHECK(T(g, z)->store == PC_T_CONST && float_bytes_are(T(g, z), want_z, 4));
  }
  CHECK(!g->nodes[ny].removed);
  CHECK(T(g, y)->store == PC_T_ACTIVATION);
  /* c itself is never turned into anything else. */
  CHECK(T(g, c)->store == PC_T_CONST && T(g, c)->data == data_before);
  CHECK(T(g, c)->dim == 1 && T(g, c)->sizes[0] == 4 && float_bytes_are(T(g, c), dc, 4));
  (void)ncalls;
  pc_graph_free(g);
}

static void test_inplace(void) {
  run_inplace_case(0); /* control: without the write, z folds */
  run_inplace_case(INPLACE_VIEW);
  run_inplace_case(INPLACE_DIRECT);
  run_inplace_case(INPLACE_VIEW | IN_REGIONS);
  run_inplace_case(INPLACE_DIRECT | IN_REGIONS);
}

/* Outputs declared dyn=bound get the shape the kernel decided:
 *   arange(3) into Long[5] bound -> Long[3] = {0,1,2}
 *   view_copy([1..6], [2,3]) into Float[4,4] bound -> Float[2,3] = {1..6} */
static void test_dynamic_bound(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t end = pc_graph_int(g, 3);
  int32_t r = pc_graph_tensor(g, PTERA_DTYPE_LONG, 1, IDS(5), PC_T_ACTIVATION, NULL, 0, NULL);
  g->values[r].u.t.dynamism = PTERA_SHAPE_DYNAMIC_BOUND;
  const float d6[] = {1, 2, 3, 4, 5, 6};
  int32_t c = cu_fconst(g, 1, IDS(6), d6, 6);
  int32_t sz = pc_graph_ints(g, (const int64_t[]){2, 3}, 2);
  int32_t vv = cu_fact(g, 2, IDS(4, 4));
  g->values[vv].u.t.dynamism = PTERA_SHAPE_DYNAMIC_BOUND;
  int32_t xl = pc_graph_tensor(g, PTERA_DTYPE_LONG, 1, IDS(5), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t xf = cu_fact(g, 2, IDS(4, 4));
  int32_t yl = pc_graph_tensor(g, PTERA_DTYPE_LONG, 1, IDS(5), PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t yf = cu_fact(g, 2, IDS(4, 4));
  int32_t alpha = pc_graph_int(g, 1);
  pc_graph_call(g, "aten::arange.out", IDS(end, r), W(0, 1), 2);
  pc_graph_call(g, "aten::view_copy.out", IDS(c, sz, vv), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::add.out", IDS(xl, r, alpha, yl), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::add.out", IDS(xf, vv, alpha, yf), W(0, 0, 0, 1), 4);
  pc_graph_set_inputs(g, IDS(xl, xf), 2);
  pc_graph_set_outputs(g, IDS(yl, yf), 2);
  pc_pass_stats st = {0};
  CHECK(pc_constprop(g, &st) == PTERA_OK);
  CHECK(st.folded_nodes == 2);
  const pc_gtensor *tr = T(g, r);
  CHECK(tr->store == PC_T_CONST && tr->dynamism == PTERA_SHAPE_STATIC);
  CHECK(tr->dim == 1 && tr->sizes[0] == 3 && tr->nbytes == 24);
  const int64_t want_r[] = {0, 1, 2};
  CHECK(tr->data && memcmp(tr->data, want_r, 24) == 0);
  const pc_gtensor *tv = T(g, vv);
  CHECK(tv->store == PC_T_CONST && tv->dynamism == PTERA_SHAPE_STATIC);
  CHECK(tv->dim == 2 && tv->sizes[0] == 2 && tv->sizes[1] == 3);
  CHECK(float_bytes_are(tv, d6, 6));
  pc_graph_free(g);
}

/* Never folded: random ops, ops without a kernel, a method output (direct or
 * in an output list), and a call
 * whose kernel fails ([2,2] + [3] does not broadcast). */
static void test_not_folded(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float d4[] = {1, 2, 3, 4}, d3[] = {1, 2, 3};
  int32_t c = cu_fconst(g, 2, IDS(2, 2), d4, 4);
  int32_t c3 = cu_fconst(g, 1, IDS(3), d3, 3);
  int32_t sizes = pc_graph_ints(g, (const int64_t[]){2, 2}, 2);
  int32_t none = pc_graph_none(g);
  int32_t alpha = pc_graph_int(g, 1);
  int32_t r1 = cu_fact(g, 2, IDS(2, 2)), r2 = cu_fact(g, 2, IDS(2, 2)), r3 = cu_fact(g, 2, IDS(2, 2));
  int32_t bad = cu_fact(g, 2, IDS(2, 2)), out = cu_fact(g, 2, IDS(2, 2)), e = cu_fact(g, 2, IDS(2, 2));
  int32_t x = cu_fact(g, 2, IDS(2, 2)), y = cu_fact(g, 2, IDS(2, 2));
  int32_t n0 = pc_graph_call(g, "aten::rand.out", IDS(sizes, none, r1), W(0, 0, 1), 3);
  int32_t n1 = pc_graph_call(g, "aten::randn.out", IDS(sizes, none, r2), W(0, 0, 1), 3);
  int32_t n2 = pc_graph_call(g, "myops::frobnicate.out", IDS(c, r3), W(0, 1), 2);
  int32_t n3 = pc_graph_call(g, "aten::add.out", IDS(c, c3, alpha, bad), W(0, 0, 0, 1), 4);
  int32_t n4 = pc_graph_call(g, "aten::add.out", IDS(c, c, alpha, out), W(0, 0, 0, 1), 4);
  int32_t n5 = pc_graph_call(g, "aten::empty.out", IDS(sizes, none, e), W(0, 0, 1), 3);
  int32_t l = pc_graph_tensor_list(g, IDS(r1, r2, r3, bad, e), 5, false);
  int32_t zero = pc_graph_int(g, 0);
  int32_t cat = cu_fact(g, 2, IDS(10, 2));
  pc_graph_call(g, "aten::cat.out", IDS(l, zero, cat), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::mul.out", IDS(x, x, y), W(0, 0, 1), 3);
  /* An output held in a tensor list that is a method output. */
  int32_t out2 = cu_fact(g, 2, IDS(2, 2));
  int32_t outl = pc_graph_tensor_list(g, IDS(out2), 1, false);
  pc_graph_call(g, "aten::mul.out", IDS(c, c, out2), W(0, 0, 1), 3);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, IDS(out, cat, y, outl), 4);
  pc_pass_stats st = {0};
  CHECK(pc_constprop(g, &st) == PTERA_OK);
  CHECK(st.folded_nodes == 0);
  for (uint32_t k = 0; k < g->nnodes; k++) CHECK(!g->nodes[k].removed);
  int32_t ids[] = {r1, r2, r3, bad, out, e, cat, y, out2};
  for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
    CHECK(T(g, ids[i])->store == PC_T_ACTIVATION && T(g, ids[i])->data == NULL);
  CHECK(T(g, bad)->dim == 2 && T(g, bad)->sizes[0] == 2 && T(g, bad)->sizes[1] == 2);
  (void)n0, (void)n1, (void)n2, (void)n3, (void)n4, (void)n5;
  pc_graph_free(g);
}

/* A value written twice is not fresh: a = c + c, then a = c * c writes it
 * again; neither writer nor the reader b = a * c folds. A literal some call
 * writes (the Int slot of aten::sym_size.int) is not a literal: q = c + c
 * with that Int as alpha does not fold. */
static void test_written_twice(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float d[] = {1, 2};
  int32_t c = cu_fconst(g, 1, IDS(2), d, 2);
  int32_t alpha = pc_graph_int(g, 1), walpha = pc_graph_int(g, 0);
  int32_t a = cu_fact(g, 1, IDS(2)), b = cu_fact(g, 1, IDS(2)), x = cu_fact(g, 1, IDS(2));
  int32_t q = cu_fact(g, 1, IDS(2)), y = cu_fact(g, 1, IDS(2)), y2 = cu_fact(g, 1, IDS(2));
  pc_graph_call(g, "aten::add.out", IDS(c, c, alpha, a), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::mul.out", IDS(c, c, a), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::mul.out", IDS(a, c, b), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::sym_size.int", IDS(x, alpha, walpha), W(0, 0, 1), 3);
  pc_graph_call(g, "aten::add.out", IDS(c, c, walpha, q), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::add.out", IDS(b, x, alpha, y), W(0, 0, 0, 1), 4);
  pc_graph_call(g, "aten::add.out", IDS(q, x, alpha, y2), W(0, 0, 0, 1), 4);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, IDS(y, y2), 2);
  pc_pass_stats st = {0};
  CHECK(pc_constprop(g, &st) == PTERA_OK);
  CHECK(st.folded_nodes == 0);
  CHECK(T(g, a)->store == PC_T_ACTIVATION && T(g, b)->store == PC_T_ACTIVATION);
  CHECK(T(g, q)->store == PC_T_ACTIVATION);
  for (uint32_t k = 0; k < g->nnodes; k++) CHECK(!g->nodes[k].removed);
  pc_graph_free(g);
}

/* ---- allocation failures: every allocation the passes make may fail ---- */

static size_t live_blocks, calls, fail_at;
static void *test_alloc(void *ud, size_t size, size_t align) {
  (void)ud;
  calls++;
  if (fail_at && calls == fail_at) return NULL;
  if (align < 16) align = 16;
  void *p = aligned_alloc(align, (size + align - 1) & ~(align - 1));
  if (p) live_blocks++;
  return p;
}
static void test_free(void *ud, void *p) {
  (void)ud;
  if (p) live_blocks--;
  free(p);
}
static const ptera_allocator tracking = {test_alloc, test_free, NULL};

/* x + ((c1 + c2) viewed as [4]), with a duplicate of c1 and a dead call. */
static pc_graph *small_graph(void) {
  pc_graph *g = pc_graph_new(&tracking, "forward");
  if (!g) return NULL;
  const float d1[] = {1, 2, 3, 4}, d2[] = {10, 20, 30, 40};
  int32_t c1 = cu_fconst(g, 2, IDS(2, 2), d1, 4), c2 = cu_fconst(g, 2, IDS(2, 2), d2, 4);
  int32_t c1b = cu_fconst(g, 2, IDS(2, 2), d1, 4);
  int32_t one = pc_graph_int(g, 1);
  int32_t shape = pc_graph_ints(g, (const int64_t[]){4}, 1);
  int32_t a = cu_fact(g, 2, IDS(2, 2)), v = cu_fact(g, 1, IDS(4)), x = cu_fact(g, 1, IDS(4));
  int32_t y = cu_fact(g, 1, IDS(4)), dead = cu_fact(g, 2, IDS(2, 2));
  if (pc_graph_call(g, "aten::add.out", IDS(c1, c2, one, a), W(0, 0, 0, 1), 4) < 0 ||
      pc_graph_call(g, "aten::view_copy.out", IDS(a, shape, v), W(0, 0, 1), 3) < 0 ||
      pc_graph_call(g, "aten::mul.out", IDS(x, c1b, dead), W(0, 0, 1), 3) < 0 ||
      pc_graph_call(g, "aten::add.out", IDS(x, v, one, y), W(0, 0, 0, 1), 4) < 0 ||
      pc_graph_set_inputs(g, &x, 1) != PTERA_OK || pc_graph_set_outputs(g, &y, 1) != PTERA_OK) {
    pc_graph_free(g);
    return NULL;
  }
  return g;
}

static void test_alloc_failures(void) {
  for (int pass = 0; pass < 3; pass++) {
    bool succeeded = false;
    for (size_t n = 1; n < 200 && !succeeded; n++) {
      fail_at = 0;
      calls = 0;
      live_blocks = 0;
      pc_graph *g = small_graph();
      CHECK(g != NULL);
      if (!g) return;
      fail_at = calls + n;
      pc_pass_stats st = {0};
      ptera_status s = pass == 0 ? pc_constprop(g, &st)
                       : pass == 1 ? pc_dedup_constants(g, &st)
                                   : pc_dce(g, &st);
      if (s == PTERA_OK) {
        succeeded = true;
        CHECK(pass != 0 || st.folded_nodes == 2);
        CHECK(pass != 1 || st.merged_constants == 1);
        CHECK(pass != 2 || st.removed_nodes == 1);
      } else {
        CHECK(s == PTERA_MEMORY_ALLOCATION_FAILED);
        CHECK(g->err.status == PTERA_MEMORY_ALLOCATION_FAILED && g->err.msg[0] != 0);
      }
      fail_at = 0;
      pc_graph_free(g);
      CHECK(live_blocks == 0);
    }
    CHECK(succeeded);
  }
}

/* Named weights headed for a .ptd under their fqn may be replaced after
 * compiling: t(W) must stay a run-time call, while an unnamed constant still
 * folds. */
static void test_replaceable_weights(void) {
  for (int replaceable = 0; replaceable <= 1; replaceable++) {
    pc_graph *g = pc_graph_new(NULL, "forward");
    CHECK(g != NULL);
    g->named_consts_replaceable = replaceable != 0;
    const float w[] = {1, 2, 3, 4, 5, 6}, k[] = {1, 1, 1};
    int32_t cw = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(2, 3), PC_T_CONST, w, sizeof w,
                                 "fc.weight");
    int32_t ck = cu_fconst(g, 1, IDS(3), k, 3);
    int32_t one = pc_graph_int(g, 1);
    int32_t wt = cu_fact(g, 2, IDS(3, 2)), k2 = cu_fact(g, 1, IDS(3));
    int32_t x = cu_fact(g, 2, IDS(1, 3)), y = cu_fact(g, 2, IDS(1, 2)), z = cu_fact(g, 2, IDS(1, 3));
    CHECK(pc_graph_call(g, "aten::t_copy.out", IDS(cw, wt), W(0, 1), 2) == 0);
    CHECK(pc_graph_call(g, "aten::add.out", IDS(ck, ck, one, k2), W(0, 0, 0, 1), 4) == 1);
    CHECK(pc_graph_call(g, "aten::mm.out", IDS(x, wt, y), W(0, 0, 1), 3) == 2);
    CHECK(pc_graph_call(g, "aten::add.out", IDS(x, k2, one, z), W(0, 0, 0, 1), 4) == 3);
    CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK);
    CHECK(pc_graph_set_outputs(g, IDS(y, z), 2) == PTERA_OK);
    pc_pass_stats st = {0};
    CHECK(pc_constprop(g, &st) == PTERA_OK);
    CHECK(g->nodes[1].removed && T(g, k2)->store == PC_T_CONST);
    const float want_k2[] = {2, 2, 2}, want_wt[] = {1, 4, 2, 5, 3, 6};
    CHECK(float_bytes_are(T(g, k2), want_k2, 3));
    if (replaceable) {
      CHECK(st.folded_nodes == 1);
      CHECK(!g->nodes[0].removed && T(g, wt)->store == PC_T_ACTIVATION);
    } else {
      CHECK(st.folded_nodes == 2);
      CHECK(g->nodes[0].removed && float_bytes_are(T(g, wt), want_wt, 6));
    }
    pc_graph_free(g);
  }
}

/* A fold making a large constant while its source stays in use (a tied
 * embedding read by both a gather and a transpose) is skipped; the same
 * transpose folds when nothing else reads the source, and a small one folds
 * either way. */
static void test_no_duplicate_large_constant(void) {
  enum { R = 128, C = 160 }; /* 80 KiB of floats: over the 64 KiB limit */
  static float w[R * C];
  for (int i = 0; i < R * C; i++) w[i] = (float)i;
  for (int shared = 0; shared <= 1; shared++) {
    for (int big = 0; big <= 1; big++) {
      int32_t rows = big ? R : 4;
      pc_graph *g = pc_graph_new(NULL, "forward");
      CHECK(g != NULL);
      int32_t cw = cu_fconst(g, 2, IDS(rows, C), w, (size_t)rows * C);
      int32_t wt = cu_fact(g, 2, IDS(C, rows));
      int32_t x = cu_fact(g, 2, IDS(1, C)), y = cu_fact(g, 2, IDS(1, rows));
      int32_t idx = pc_graph_tensor(g, PTERA_DTYPE_LONG, 1, IDS(1), PC_T_ACTIVATION, NULL, 0,
                                    NULL);
      int32_t e = cu_fact(g, 2, IDS(1, C));
      int32_t pad = pc_graph_int(g, -1);
      int32_t f = pc_graph_bool(g, false);
      CHECK(pc_graph_call(g, "aten::t_copy.out", IDS(cw, wt), W(0, 1), 2) == 0);
      CHECK(pc_graph_call(g, "aten::mm.out", IDS(x, wt, y), W(0, 0, 1), 3) == 1);
      int32_t outs[2] = {y, e};
      if (shared)
        CHECK(pc_graph_call(g, "aten::embedding.out", IDS(cw, idx, pad, f, f, e),
                            W(0, 0, 0, 0, 0, 1), 6) == 2);
      CHECK(pc_graph_set_inputs(g, IDS(x, idx), 2) == PTERA_OK);
      CHECK(pc_graph_set_outputs(g, outs, shared ? 2 : 1) == PTERA_OK);
      pc_pass_stats st = {0};
      CHECK(pc_constprop(g, &st) == PTERA_OK);
      bool want_fold = !(shared && big);
      CHECK(st.folded_nodes == (want_fold ? 1u : 0u));
      CHECK(g->nodes[0].removed == want_fold);
      if (want_fold) {
        const float *d = (const float *)T(g, wt)->data;
        CHECK(d[0] == 0 && d[1] == (float)C && d[rows] == 1); /* wt[i][j] = w[j][i] */
      }
      pc_graph_free(g);
    }
  }
}

int main(void) {
  test_chain();
  test_lists();
  test_inplace();
  test_dynamic_bound();
  test_not_folded();
  test_written_twice();
  test_replaceable_weights();
  test_no_duplicate_large_constant();
  test_alloc_failures();
  return check_summary("constprop");
}

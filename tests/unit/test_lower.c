/* The lowering (compiler/lower.h): hand-built graphs are lowered, emitted
 * with pc_emit_pte (and pc_emit_ptd), loaded and run through the public API
 * against hand-computed outputs; memory plans are checked from the lowered
 * program itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit_ptd.h"
#include "emit_pte.h"
#include "graph.h"
#include "lower.h"
#include "ptera/ptera.h"

#define F32 PTERA_DTYPE_FLOAT

static int32_t act(pc_graph *g, uint32_t dim, const int32_t *sizes) {
  return pc_graph_tensor(g, F32, dim, sizes, PC_T_ACTIVATION, NULL, 0, NULL);
}

/* A call whose last nout arguments are written (the graph leaves the
 * return slot out; the lowering appends it). */
static int32_t call(pc_graph *g, const char *op, const int32_t *args, uint32_t nargs,
                    uint32_t nout) {
  uint8_t w[16] = {0};
  for (uint32_t i = nargs - nout; i < nargs; i++) w[i] = 1;
  return pc_graph_call(g, op, args, w, nargs);
}

/* Lowers and emits; returns the .pte (pt_free) or NULL. */
static uint8_t *lower_emit(pc_graph **gs, uint32_t n, const pc_lower_options *o,
                           pc_lower_result *r, size_t *size) {
  pt_err e;
  pt_err_clear(&e);
  ptera_status st = pc_lower(gs, n, o, r, &e);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    fprintf(stderr, "lower: %s\n", e.msg);
    return NULL;
  }
  uint8_t *file = NULL;
  st = pc_emit_pte(&r->program, NULL, &file, size, &e);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) fprintf(stderr, "emit: %s\n", e.msg);
  return file;
}

static ptera_method *open_method(ptera_program **prog, const uint8_t *pte, size_t size,
                                 const uint8_t *ptd, size_t ptd_size, const char *name) {
  ptera_method *m = NULL;
  *prog = NULL;
  if (!pte || ptera_program_load_buffer(pte, size, NULL, prog) != PTERA_OK) {
    CHECK(!"load");
    if (*prog) fprintf(stderr, "load: %s\n", ptera_program_errmsg(*prog));
    return NULL;
  }
  if (ptd) CHECK(ptera_program_attach_data_buffer(*prog, ptd, ptd_size) == PTERA_OK);
  ptera_status st = ptera_method_create(*prog, name, NULL, &m);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    fprintf(stderr, "method: %s\n", m ? ptera_method_errmsg(m) : ptera_program_errmsg(*prog));
    ptera_method_destroy(m);
    return NULL;
  }
  return m;
}

/* Sets input 0, executes, compares output 0 with want (n floats). */
static void exec_check(ptera_method *m, uint32_t dim, const int32_t *sizes, const float *x,
                       const float *want, size_t n) {
  size_t numel = 1;
  for (uint32_t i = 0; i < dim; i++) numel *= (size_t)sizes[i];
  CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, dim, sizes, x, numel * 4) ==
        PTERA_OK);
  ptera_status st = ptera_method_execute(m);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    fprintf(stderr, "execute: %s\n", ptera_method_errmsg(m));
    return;
  }
  const ptera_value *y = ptera_method_output(m, 0);
  CHECK(y && y->tag == PTERA_TAG_TENSOR && y->u.tensor->numel == n);
  if (!y || y->tag != PTERA_TAG_TENSOR || y->u.tensor->numel != n) return;
  const float *d = y->u.tensor->data;
  for (size_t i = 0; i < n; i++) {
    CHECK(d[i] == want[i]);
    if (d[i] != want[i]) fprintf(stderr, "  y[%zu] = %g, want %g\n", i, d[i], want[i]);
  }
}

/* open_method(pte [+ ptd], "forward"), then exec_check when it opened. */
static void run_forward(const uint8_t *pte, size_t size, const uint8_t *ptd, size_t ptd_size,
                        uint32_t dim, const int32_t *sizes, const float *x, const float *want,
                        size_t n) {
  ptera_program *prog;
  ptera_method *meth = open_method(&prog, pte, size, ptd, ptd_size, "forward");
  if (meth) exec_check(meth, dim, sizes, x, want, n);
  ptera_method_destroy(meth);
  ptera_program_destroy(prog);
}

/* ---- plan checks, re-derived from the lowered method ---- */

static size_t tensor_bytes(const pc_tensor *t) {
  size_t n = ptera_dtype_size(t->scalar_type);
  for (uint32_t i = 0; i < t->dim; i++) n *= (size_t)t->sizes[i];
  return n;
}

static void use(uint32_t *first, uint32_t *last, const pc_method *m, int32_t v, uint32_t k) {
  if (k < first[v]) first[v] = k;
  if (k > last[v]) last[v] = k;
  const pc_value *x = &m->values[v];
  if (x->kind == PC_VAL_TENSOR_LIST || x->kind == PC_VAL_OPT_TENSOR_LIST)
    for (uint32_t i = 0; i < x->u.list.len; i++)
      if (x->u.list.items[i] >= 0) use(first, last, m, x->u.list.items[i], k);
}

/* Planned tensors that are live at the same time (inputs and outputs and
 * tensors with initial values: always) never overlap in memory, except
 * pairs at exactly the same place when same_ok. Every tensor fits its
 * arena. Returns the number of overlapping pairs at the same place. */
static int check_plan(const pc_method *m, bool same_ok) {
  uint32_t n = m->nvalues, end = m->ninstrs ? m->ninstrs - 1 : 0;
  uint32_t *first = malloc(n * sizeof *first), *last = calloc(n, sizeof *last);
  bool *always = calloc(n, 1);
  int shared = 0;
  for (uint32_t v = 0; v < n; v++) first[v] = UINT32_MAX;
  for (uint32_t k = 0; k < m->ninstrs; k++)
    for (uint32_t a = 0; a < m->instrs[k].nargs; a++) use(first, last, m, m->instrs[k].args[a], k);
  for (uint32_t i = 0; i < m->ninputs; i++) always[m->inputs[i]] = true;
  for (uint32_t i = 0; i < m->noutputs; i++) always[m->outputs[i]] = true;
  for (uint32_t v = 0; v < n; v++) {
    const pc_value *x = &m->values[v];
    if (x->kind == PC_VAL_TENSOR && x->u.tensor.initial) always[v] = true;
    if (always[v]) first[v] = 0, last[v] = end;
  }
  for (uint32_t i = 0; i < n; i++) {
    const pc_tensor *a = &m->values[i].u.tensor;
    if (m->values[i].kind != PC_VAL_TENSOR || a->storage != PC_STORAGE_PLANNED) continue;
    CHECK(a->memory_id >= 1 && a->memory_id <= m->nbuffers);
    CHECK(a->memory_offset + tensor_bytes(a) <= (uint64_t)m->buffer_sizes[a->memory_id - 1]);
    for (uint32_t j = i + 1; j < n; j++) {
      const pc_tensor *b = &m->values[j].u.tensor;
      if (m->values[j].kind != PC_VAL_TENSOR || b->storage != PC_STORAGE_PLANNED) continue;
      if (a->memory_id != b->memory_id || !tensor_bytes(a) || !tensor_bytes(b)) continue;
      bool live = first[i] <= last[j] && first[j] <= last[i];
      bool overlap = a->memory_offset < b->memory_offset + tensor_bytes(b) &&
                     b->memory_offset < a->memory_offset + tensor_bytes(a);
      if (!live || !overlap) continue;
      if (same_ok && a->memory_offset == b->memory_offset) {
        shared++;
        continue;
      }
      CHECK(!"live planned tensors overlap");
      fprintf(stderr, "  values %u and %u overlap\n", i, j);
    }
  }
  free(first);
  free(last);
  free(always);
  return shared;
}

/* ---- linear + relu, optionally with external weights ---- */

static const float W[12] = {1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1};
static const float B[3] = {0.5f, -10.0f, 0.0f};
static const float LX[8] = {1, 2, 3, 4, -1, -2, -3, -4};
/* x W^T + b = [[1.5, -8, 10], [-0.5, -12, -10]]; relu: */
static const float LY[6] = {1.5f, 0, 10, 0, 0, 0};

static pc_graph *linear_graph(const char *wname) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 2, (int32_t[]){2, 4});
  int32_t w = pc_graph_tensor(g, F32, 2, (int32_t[]){3, 4}, PC_T_CONST, W, 48, wname);
  int32_t b = pc_graph_tensor(g, F32, 1, (int32_t[]){3}, PC_T_CONST, B, 12, NULL);
  int32_t unused = pc_graph_tensor(g, F32, 1, (int32_t[]){3}, PC_T_CONST, B, 12, "dead");
  int32_t t = act(g, 2, (int32_t[]){2, 3}), y = act(g, 2, (int32_t[]){2, 3});
  int32_t t2 = act(g, 2, (int32_t[]){2, 3});
  pc_graph_region(g, true, "no_grad");
  call(g, "aten::linear.out", (int32_t[]){x, w, b, t}, 4, 1);
  call(g, "aten::relu.out", (int32_t[]){t, y}, 2, 1);
  int32_t dead = call(g, "aten::relu.out", (int32_t[]){unused, t2}, 2, 1);
  g->nodes[dead].removed = true;
  pc_graph_region(g, false, NULL);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  CHECK(g->err.status == PTERA_OK && x == 0 && unused == 3 && t2 == 6);
  return g;
}

static void test_linear_relu(void) {
  pc_graph *g = linear_graph("fc.weight");
  pc_lower_result r;
  size_t size = 0;
  uint8_t *pte = lower_emit(&g, 1, NULL, &r, &size);
  if (pte) {
    const pc_method *m = &r.program.methods[0];
    /* Region markers and the removed call are gone; so are its values. */
    CHECK(m->ninstrs == 2 && m->nops == 2 && m->nvalues == 5);
    /* The return slot is appended: the out argument again. */
    CHECK(m->instrs[0].nargs == 5 && m->instrs[0].args[4] == m->instrs[0].args[3] &&
          m->instrs[1].nargs == 3 && m->instrs[1].args[2] == r.value_index[0][5]);
    CHECK(!strcmp(m->ops[0].name, "aten::linear") && !strcmp(m->ops[0].overload, "out"));
    CHECK(!strcmp(m->ops[1].name, "aten::relu") && !strcmp(m->ops[1].overload, "out"));
    CHECK(r.value_index[0][3] == -1 && r.value_index[0][6] == -1 && r.value_index[0][5] == 4);
    const pc_tensor *wt = &m->values[r.value_index[0][1]].u.tensor;
    CHECK(wt->storage == PC_STORAGE_CONST && !wt->external && wt->data && wt->nbytes == 48);
    CHECK(r.nptd == 0);
    check_plan(m, false);
    run_forward(pte, size, NULL, 0, 2, (int32_t[]){2, 4}, LX, LY, 6);
  }
  pt_free(NULL, pte);
  pc_lower_result_free(&r);
  pc_graph_free(g);
}

static void test_external(pc_weight_keys keys) {
  pc_graph *g = linear_graph("fc.weight");
  pc_lower_options o = {NULL, true, keys, 0};
  pc_lower_result r;
  size_t size = 0, ptd_size = 0;
  uint8_t *pte = lower_emit(&g, 1, &o, &r, &size), *ptd = NULL;
  pt_err e;
  if (pte) {
    const pc_method *m = &r.program.methods[0];
    const pc_tensor *wt = &m->values[r.value_index[0][1]].u.tensor;
    const pc_tensor *bt = &m->values[r.value_index[0][2]].u.tensor;
    if (keys == PC_WEIGHT_KEYS_FQN) {
      /* The bias has no fqn: it stays in the .pte. */
      CHECK(r.nptd == 1 && !strcmp(r.ptd[0].key, "fc.weight") && r.ptd[0].nbytes == 48);
      CHECK(wt->external && !strcmp(wt->fqn, "fc.weight") && !bt->external);
    } else {
      const char *wk = "6f75c55be9d0989306b1293c4d4b85faf656696122345353322c78932a112cda";
      const char *bk = "9d7bba4574975b27c972d6c88ebf4aa7f15356cab000d8bd335851badafad478";
      CHECK(r.nptd == 2 && !strcmp(r.ptd[0].key, wk) && !strcmp(r.ptd[1].key, bk));
      CHECK(wt->external && !strcmp(wt->fqn, wk) && bt->external && !strcmp(bt->fqn, bk));
    }
    CHECK(pc_emit_ptd(r.ptd, r.nptd, NULL, &ptd, &ptd_size, &e) == PTERA_OK);
    run_forward(pte, size, ptd, ptd_size, 2, (int32_t[]){2, 4}, LX, LY, 6);
    /* Without the .ptd the method cannot be created. */
    ptera_program *p2 = NULL;
    ptera_method *m2 = NULL;
    CHECK(ptera_program_load_buffer(pte, size, NULL, &p2) == PTERA_OK);
    CHECK(p2 && ptera_method_create(p2, "forward", NULL, &m2) != PTERA_OK);
    ptera_method_destroy(m2);
    ptera_program_destroy(p2);
  }
  pt_free(NULL, pte);
  pt_free(NULL, ptd);
  pc_lower_result_free(&r);
  pc_graph_free(g);
}

/* Two methods name different data "fc.weight": refused with fqn keys,
 * fine with hash keys (two entries). The same weight in both: one entry. */
static void test_key_conflicts(void) {
  static const float W2[12] = {2, 0, 0, 0, 0, 2, 0, 0, 2, 2, 2, 2};
  pc_graph *gs[2] = {linear_graph("fc.weight"), linear_graph("fc.weight")};
  pc_graph_free(gs[1]);
  gs[1] = pc_graph_new(NULL, "other");
  int32_t x = act(gs[1], 2, (int32_t[]){2, 4});
  int32_t w = pc_graph_tensor(gs[1], F32, 2, (int32_t[]){3, 4}, PC_T_CONST, W2, 48, "fc.weight");
  int32_t none = pc_graph_none(gs[1]), y = act(gs[1], 2, (int32_t[]){2, 3});
  call(gs[1], "aten::linear.out", (int32_t[]){x, w, none, y}, 4, 1);
  pc_graph_set_inputs(gs[1], &x, 1);
  pc_graph_set_outputs(gs[1], &y, 1);
  pc_lower_options o = {NULL, true, PC_WEIGHT_KEYS_FQN, 0};
  pc_lower_result r;
  pt_err e;
  pt_err_clear(&e);
  CHECK(pc_lower(gs, 2, &o, &r, &e) == PTERA_INVALID_ARGUMENT && strstr(e.msg, "fc.weight") &&
        strstr(e.msg, "other") && r.program.nmethods == 0);
  o.weight_keys = PC_WEIGHT_KEYS_HASH;
  CHECK(pc_lower(gs, 2, &o, &r, &e) == PTERA_OK && r.nptd == 3);
  pc_lower_result_free(&r);
  pc_graph *same[2] = {gs[0], linear_graph("fc.weight")};
  o.weight_keys = PC_WEIGHT_KEYS_FQN;
  CHECK(pc_lower(same, 2, &o, &r, &e) == PTERA_OK && r.nptd == 1);
  pc_lower_result_free(&r);
  pc_graph_free(same[1]);
  pc_graph_free(gs[0]);
  pc_graph_free(gs[1]);
}

/* view_copy(x, [3, 2]) + c: the int list is boxed into Int values. */
static void test_int_list(void) {
  static const float C[6] = {10, 20, 30, 40, 50, 60};
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 2, (int32_t[]){2, 3});
  int32_t sz = pc_graph_ints(g, (int64_t[]){3, 2}, 2);
  int32_t v = act(g, 2, (int32_t[]){3, 2}), y = act(g, 2, (int32_t[]){3, 2});
  int32_t c = pc_graph_tensor(g, F32, 2, (int32_t[]){3, 2}, PC_T_CONST, C, 24, NULL);
  int32_t one = pc_graph_int(g, 1);
  call(g, "aten::view_copy.out", (int32_t[]){x, sz, v}, 3, 1);
  call(g, "aten::add.out", (int32_t[]){v, c, one, y}, 4, 1);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  pc_lower_result r;
  size_t size = 0;
  uint8_t *pte = lower_emit(&g, 1, NULL, &r, &size);
  if (pte) {
    const pc_method *m = &r.program.methods[0];
    const pc_value *l = &m->values[r.value_index[0][sz]];
    CHECK(l->kind == PC_VAL_INT_LIST && l->u.list.len == 2);
    if (l->kind == PC_VAL_INT_LIST && l->u.list.len == 2) {
      const pc_value *i0 = &m->values[l->u.list.items[0]], *i1 = &m->values[l->u.list.items[1]];
      CHECK(i0->kind == PC_VAL_INT && i0->u.i == 3 && i1->kind == PC_VAL_INT && i1->u.i == 2);
      CHECK(l->u.list.items[1] < r.value_index[0][sz]);
    }
    CHECK(m->nvalues == 8); /* x, 3, 2, [3,2], v, y, c, 1 */
    check_plan(m, false);
    const float in[6] = {1, 2, 3, 4, 5, 6};
    const float want[6] = {11, 22, 33, 44, 55, 66};
    run_forward(pte, size, NULL, 0, 2, (int32_t[]){2, 3}, in, want, 6);
  }
  pt_free(NULL, pte);
  pc_lower_result_free(&r);
  pc_graph_free(g);
}

/* cat([relu(x), c], 0): a tensor list keeps relu(x) alive until the cat. */
static void test_tensor_list(void) {
  static const float C[3] = {7, 8, 9};
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 2, (int32_t[]){1, 3}), a = act(g, 2, (int32_t[]){1, 3});
  int32_t b = act(g, 2, (int32_t[]){1, 3});
  int32_t c = pc_graph_tensor(g, F32, 2, (int32_t[]){1, 3}, PC_T_CONST, C, 12, NULL);
  int32_t list = pc_graph_tensor_list(g, (int32_t[]){a, c}, 2, false);
  int32_t dim = pc_graph_int(g, 0), y = act(g, 2, (int32_t[]){2, 3});
  call(g, "aten::relu.out", (int32_t[]){x, a}, 2, 1);
  call(g, "aten::relu.out", (int32_t[]){x, b}, 2, 1); /* b overlaps a's life */
  call(g, "aten::cat.out", (int32_t[]){list, dim, y}, 3, 1);
  int32_t ob[2] = {y, b};
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, ob, 2);
  pc_lower_result r;
  size_t size = 0;
  uint8_t *pte = lower_emit(&g, 1, NULL, &r, &size);
  if (pte) {
    const pc_method *m = &r.program.methods[0];
    const pc_value *l = &m->values[r.value_index[0][list]];
    CHECK(l->kind == PC_VAL_TENSOR_LIST && l->u.list.len == 2 &&
          l->u.list.items[0] == r.value_index[0][a] && l->u.list.items[1] == r.value_index[0][c]);
    const pc_tensor *ta = &m->values[r.value_index[0][a]].u.tensor;
    const pc_tensor *tb = &m->values[r.value_index[0][b]].u.tensor;
    CHECK(ta->storage == PC_STORAGE_PLANNED && tb->storage == PC_STORAGE_PLANNED &&
          ta->memory_offset != tb->memory_offset);
    check_plan(m, false);
    const float in[3] = {-1, 2, -3};
    const float want[6] = {0, 2, 0, 7, 8, 9};
    run_forward(pte, size, NULL, 0, 2, (int32_t[]){1, 3}, in, want, 6);
  }
  pt_free(NULL, pte);
  pc_lower_result_free(&r);
  pc_graph_free(g);
}

/* A BUFFER updated in place: t = buf + x; buf.copy_(t); return t. */
static void test_buffer_state(void) {
  static const float S0[3] = {1, 2, 3};
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 1, (int32_t[]){3});
  int32_t buf = pc_graph_tensor(g, F32, 1, (int32_t[]){3}, PC_T_BUFFER, S0, 12, "state");
  int32_t one = pc_graph_int(g, 1), t = act(g, 1, (int32_t[]){3}), nb = pc_graph_bool(g, false);
  call(g, "aten::add.out", (int32_t[]){buf, x, one, t}, 4, 1);
  pc_graph_call(g, "aten::copy_", (int32_t[]){buf, t, nb}, (uint8_t[]){1, 0, 0}, 3);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &t, 1);
  pc_lower_result r;
  size_t size = 0;
  uint8_t *pte = lower_emit(&g, 1, NULL, &r, &size);
  if (pte) {
    const pc_method *m = &r.program.methods[0];
    const pc_tensor *bt = &m->values[r.value_index[0][buf]].u.tensor;
    CHECK(bt->storage == PC_STORAGE_PLANNED && bt->initial == g->values[buf].u.t.data &&
          bt->initial_nbytes == 12 && bt->fqn && !strcmp(bt->fqn, "state"));
    CHECK(m->ninstrs == 2 && m->instrs[1].nargs == 4 &&
          m->instrs[1].args[3] == r.value_index[0][buf]);
    check_plan(m, false);
    ptera_program *prog;
    ptera_method *meth = open_method(&prog, pte, size, NULL, 0, "forward");
    if (meth) {
      const float x1[3] = {1, 1, 1}, y1[3] = {2, 3, 4};
      const float x2[3] = {10, 20, 30}, y2[3] = {12, 23, 34};
      exec_check(meth, 1, (int32_t[]){3}, x1, y1, 3);
      exec_check(meth, 1, (int32_t[]){3}, x2, y2, 3);
    }
    ptera_method_destroy(meth);
    ptera_program_destroy(prog);
  }
  pt_free(NULL, pte);
  pc_lower_result_free(&r);
  pc_graph_free(g);
}

/* x -> a -> b -> c -> d (relu chain of 16-byte tensors): a and c may share.
 * Pinned x and d, plus a, b, c: no reuse 80 B; the plan needs 64 B. */
static void test_chain_reuse(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t v[5];
  for (int i = 0; i < 5; i++) v[i] = act(g, 1, (int32_t[]){4});
  for (int i = 0; i < 4; i++) call(g, "aten::relu.out", (int32_t[]){v[i], v[i + 1]}, 2, 1);
  pc_graph_set_inputs(g, &v[0], 1);
  pc_graph_set_outputs(g, &v[4], 1);
  pc_lower_result r;
  size_t size = 0;
  uint8_t *pte = lower_emit(&g, 1, NULL, &r, &size);
  if (pte) {
    const pt_memplan_summary *s = &r.plans[0];
    CHECK(s->no_reuse_bytes == 80 && s->peak_bytes == 64 && s->peak_bytes < s->no_reuse_bytes);
    check_plan(&r.program.methods[0], false);
    const float in[4] = {-1, 2, -3, 4}, want[4] = {0, 2, 0, 4};
    run_forward(pte, size, NULL, 0, 1, (int32_t[]){4}, in, want, 4);
  }
  pt_free(NULL, pte);
  pc_lower_result_free(&r);
  pc_graph_free(g);
}

/* h = relu(x); t = linear(h); y = relu(t); z = relu(y). The runtime fuses
 * linear and the relu after it and writes y while still reading h, so h
 * lives until y is written and never shares y's bytes (without that rule
 * y would take h's place: h is dead after the linear in program order). */
static void test_fused_chain_apart(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 2, (int32_t[]){2, 4}), h = act(g, 2, (int32_t[]){2, 4});
  int32_t w = pc_graph_tensor(g, F32, 2, (int32_t[]){3, 4}, PC_T_CONST, W, 48, NULL);
  int32_t b = pc_graph_tensor(g, F32, 1, (int32_t[]){3}, PC_T_CONST, B, 12, NULL);
  int32_t t = act(g, 2, (int32_t[]){2, 3}), y = act(g, 2, (int32_t[]){2, 3}), z = act(g, 2, (int32_t[]){2, 3});
  call(g, "aten::relu.out", (int32_t[]){x, h}, 2, 1);
  call(g, "aten::linear.out", (int32_t[]){h, w, b, t}, 4, 1);
  call(g, "aten::relu.out", (int32_t[]){t, y}, 2, 1);
  call(g, "aten::relu.out", (int32_t[]){y, z}, 2, 1);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &z, 1);
  pc_lower_result r;
  size_t size = 0;
  uint8_t *pte = lower_emit(&g, 1, NULL, &r, &size);
  if (pte) {
    const pc_method *m = &r.program.methods[0];
    const pc_tensor *th = &m->values[r.value_index[0][h]].u.tensor, *ty = &m->values[r.value_index[0][y]].u.tensor;
    CHECK(th->storage == PC_STORAGE_PLANNED && ty->storage == PC_STORAGE_PLANNED);
    CHECK(th->memory_id != ty->memory_id || th->memory_offset >= ty->memory_offset + 24 ||
          ty->memory_offset >= th->memory_offset + 32);
    check_plan(m, false);
    const float want[6] = {1.5f, 0, 10, 0.5f, 0, 0};
    run_forward(pte, size, NULL, 0, 2, (int32_t[]){2, 4}, LX, want, 6);
  }
  pt_free(NULL, pte);
  pc_lower_result_free(&r);
  pc_graph_free(g);
}

/* et_view: y = relu(et_view(x + x, [6])). The view is unplanned and keeps
 * its base alive; a separate alias (no et_view) shares the base's place. */
static void test_views(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 2, (int32_t[]){2, 3}), t = act(g, 2, (int32_t[]){2, 3});
  int32_t one = pc_graph_int(g, 1), sz = pc_graph_ints(g, (int64_t[]){6}, 1);
  int32_t v = act(g, 1, (int32_t[]){6}), y = act(g, 1, (int32_t[]){6});
  int32_t u = act(g, 1, (int32_t[]){6}), z = act(g, 1, (int32_t[]){6});
  call(g, "aten::add.out", (int32_t[]){x, x, one, t}, 4, 1);
  pc_graph_call(g, "executorch_prim::et_view.default", (int32_t[]){t, sz, v}, (uint8_t[]){0, 0, 1},
                3);
  pc_graph_alias(g, v, t);
  call(g, "aten::relu.out", (int32_t[]){v, u}, 2, 1);
  call(g, "aten::relu.out", (int32_t[]){v, z}, 2, 1); /* t (via v) still live */
  call(g, "aten::add.out", (int32_t[]){u, z, one, y}, 4, 1);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  pc_lower_result r;
  size_t size = 0;
  uint8_t *pte = lower_emit(&g, 1, NULL, &r, &size);
  if (pte) {
    const pc_method *m = &r.program.methods[0];
    CHECK(m->nops == 3 && !strcmp(m->ops[1].name, "executorch_prim::et_view") &&
          !strcmp(m->ops[1].overload, "default"));
    const pc_tensor *tv = &m->values[r.value_index[0][v]].u.tensor;
    const pc_tensor *tt = &m->values[r.value_index[0][t]].u.tensor;
    const pc_tensor *tz = &m->values[r.value_index[0][z]].u.tensor;
    CHECK(tv->storage == PC_STORAGE_NONE && tt->storage == PC_STORAGE_PLANNED);
    CHECK(m->instrs[1].nargs == 3); /* functional: no return slot added */
    CHECK(tz->memory_offset != tt->memory_offset);
    check_plan(m, false);
    const float in[6] = {1, -2, 3, -4, 5, -6}, want[6] = {4, 0, 12, 0, 20, 0};
    run_forward(pte, size, NULL, 0, 2, (int32_t[]){2, 3}, in, want, 6);
  }
  pt_free(NULL, pte);
  pc_lower_result_free(&r);
  pc_graph_free(g);
}

/* Optional tensor lists, op names without an overload, bad graphs. */
static void test_misc(void) {
  pc_graph *g = pc_graph_new(NULL, "m");
  int32_t x = act(g, 1, (int32_t[]){2}), y = act(g, 1, (int32_t[]){2});
  int32_t ol = pc_graph_tensor_list(g, (int32_t[]){-1, x}, 2, true);
  int32_t d = pc_graph_doubles(g, (double[]){0.5, 2}, 2), s = pc_graph_string(g, "mean");
  pc_graph_call(g, "my.ns::op", (int32_t[]){ol, d, s, y}, (uint8_t[]){0, 0, 0, 1}, 4);
  /* Two outs: the return slot is a new list of both; none: a new None. */
  int32_t o1 = act(g, 1, (int32_t[]){2}), o2 = act(g, 1, (int32_t[]){2});
  call(g, "my::two.out", (int32_t[]){x, o1, o2}, 3, 2);
  call(g, "my::sink", (int32_t[]){o1, o2}, 2, 0);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  pc_lower_result r;
  pt_err e;
  CHECK(pc_lower(&g, 1, NULL, &r, &e) == PTERA_OK);
  const pc_method *m = &r.program.methods[0];
  CHECK(m->ninstrs == 3 && m->instrs[1].nargs == 4 && m->instrs[2].nargs == 3);
  if (m->ninstrs == 3 && m->instrs[1].nargs == 4 && m->instrs[2].nargs == 3) {
    const pc_value *two = &m->values[m->instrs[1].args[3]];
    CHECK(two->kind == PC_VAL_TENSOR_LIST && two->u.list.len == 2 &&
          two->u.list.items[0] == r.value_index[0][o1] &&
          two->u.list.items[1] == r.value_index[0][o2]);
    CHECK(m->values[m->instrs[2].args[2]].kind == PC_VAL_NULL);
    CHECK(m->instrs[1].args[3] >= r.value_index[0][o2]); /* after the graph's values */
  }
  CHECK(!strcmp(m->ops[0].name, "my.ns::op") && !strcmp(m->ops[0].overload, ""));
  const pc_value *l = &m->values[r.value_index[0][ol]];
  CHECK(l->kind == PC_VAL_OPT_TENSOR_LIST && l->u.list.len == 2 && l->u.list.items[0] == -1 &&
        l->u.list.items[1] == r.value_index[0][x]);
  CHECK(m->values[r.value_index[0][d]].kind == PC_VAL_DOUBLE_LIST &&
        m->values[r.value_index[0][s]].kind == PC_VAL_STRING);
  pc_lower_result_free(&r);
  g->nodes[0].args[3] = 99; /* a bad id is reported, not followed */
  CHECK(pc_lower(&g, 1, NULL, &r, &e) == PTERA_INVALID_ARGUMENT && strstr(e.msg, "method 'm'") &&
        strstr(e.msg, "bad value id"));
  pc_lower_options o = {NULL, false, (pc_weight_keys)7, 0};
  CHECK(pc_lower(&g, 1, &o, &r, &e) == PTERA_INVALID_ARGUMENT);
  pc_graph_free(g);
}

int main(void) {
  test_linear_relu();
  test_fused_chain_apart();
  test_external(PC_WEIGHT_KEYS_FQN);
  test_external(PC_WEIGHT_KEYS_HASH);
  test_key_conflicts();
  test_int_list();
  test_tensor_list();
  test_buffer_state();
  test_chain_reuse();
  test_views();
  test_misc();
  return check_summary("lower");
}

/* XNNPACK blob reader and backend edge cases: header bounds, identifiers,
 * every truncation of a valid blob, undefined and duplicate ids, external
 * ids, constant indices, SDPA; dynamic shapes and rank changes at execute;
 * messages name the node index and kind. Blobs come from compiler/emit_xnn.c
 * and the corpus's XNNPACK programs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit_xnn.h"
#include "format/xnngraph.h"
#include "ptera/ptera.h"

/* y = clamp(a + b, -1, 1): a [4,3] external 0, b [3] constant, y external 1. */
static const float k_b[3] = {0.5f, -0.25f, 2.0f};

static void add_graph(pc_xnn_value_desc v[3], pc_xnn_node_desc *n) {
  memset(v, 0, 3 * sizeof *v);
  memset(n, 0, sizeof *n);
  v[0] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .flags = 1, .external_id = 0, .ndims = 2, .dims = {4, 3}};
  v[1] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .ndims = 1, .dims = {3}, .data = k_b, .nbytes = sizeof k_b};
  v[2] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .flags = 2, .external_id = 1, .ndims = 2, .dims = {4, 3}};
  n->kind = PF_XNN_ADD;
  n->in[0] = 0;
  n->in[1] = 1;
  n->out[0] = 2;
  n->has_min_max = true;
  n->out_min = -1.0f;
  n->out_max = 1.0f;
}

static ptera_status parse(const uint8_t *blob, size_t size, pf_xnn_graph *g, pt_arena *a, pt_err *e) {
  pt_arena_init(a, NULL);
  pt_err_clear(e);
  return pf_xnn_parse(blob, size, a, g, e);
}

static ptera_status parse_msg(const uint8_t *blob, size_t size, char *msg, size_t cap) {
  pt_arena a;
  pf_xnn_graph g;
  pt_err e;
  uint8_t *copy = malloc(size ? size : 1);
  memcpy(copy, blob, size);
  ptera_status st = parse(copy, size, &g, &a, &e);
  snprintf(msg, cap, "%s", st == PTERA_OK ? "" : e.msg);
  pt_arena_release(&a);
  free(copy);
  return st;
}

/* XNNScaledDotProductAttention gives a named NotImplemented error, as
 * upstream. The writer has no SDPA layout, so the node type byte is found
 * as the one byte where an Add blob and a Subtract blob (same payload
 * layout) differ, and set to SDPA's. */
static void test_sdpa(void) {
  pc_xnn_value_desc v[3];
  pc_xnn_node_desc n;
  uint8_t *add, *sub;
  size_t na, ns, at = 0, diffs = 0;
  add_graph(v, &n);
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &add, &na) == PTERA_OK);
  n.kind = PF_XNN_SUBTRACT;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &sub, &ns) == PTERA_OK);
  CHECK(na == ns);
  for (size_t i = 0; i < na && i < ns; i++)
    if (add[i] != sub[i]) {
      at = i;
      diffs++;
    }
  CHECK(diffs == 1 && add[at] == PF_XNN_ADD);
  add[at] = PF_XNN_SDPA;
  char msg[600];
  CHECK(parse_msg(add, na, msg, sizeof msg) == PTERA_NOT_IMPLEMENTED && strstr(msg, "node 0") &&
        strstr(msg, "XNNScaledDotProductAttention is not supported"));
  free(add);
  free(sub);
}

static void test_reader(void) {
  pc_xnn_value_desc v[3];
  pc_xnn_node_desc n;
  add_graph(v, &n);
  uint8_t *blob;
  size_t size;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  pt_arena a;
  pf_xnn_graph g;
  pt_err e;
  CHECK(parse(blob, size, &g, &a, &e) == PTERA_OK);
  CHECK(g.has_header && !strcmp(g.ident, "XN01") && g.nvalues == 3 && g.nnodes == 1 && g.num_externs == 2);
  CHECK(g.nodes[0].kind == PF_XNN_ADD && g.nodes[0].in[1] == 1 && g.nodes[0].out_min == -1.0f);
  CHECK(g.nconsts == 2 && g.consts[0].named && !g.consts[1].named && g.consts[1].size == sizeof k_b);
  CHECK(g.values[1].constant_idx == 1 && memcmp(g.consts[1].data, k_b, sizeof k_b) == 0);
  pt_arena_release(&a);

  char msg[600];
  /* Every truncation fails cleanly with a message. */
  for (size_t cut = 0; cut < size; cut++) {
    ptera_status st = parse_msg(blob, cut, msg, sizeof msg);
    CHECK(st != PTERA_OK && msg[0]);
  }
  uint8_t *m = malloc(size);
  /* Header bounds: flatbuffer past the end, constant data overlapping it. */
  memcpy(m, blob, size);
  m[14] = 0xff;
  m[15] = 0xff;
  CHECK(parse_msg(m, size, msg, sizeof msg) == PTERA_INVALID_ARGUMENT && strstr(msg, "header"));
  memcpy(m, blob, size);
  m[18] = 40;
  m[19] = m[20] = m[21] = 0;
  CHECK(parse_msg(m, size, msg, sizeof msg) == PTERA_INVALID_ARGUMENT);
  /* Identifier. */
  memcpy(m, blob, size);
  memcpy(m + 32 + 4, "XN99", 4);
  CHECK(parse_msg(m, size, msg, sizeof msg) == PTERA_DELEGATE_INVALID_COMPATIBILITY && strstr(msg, "identifier"));
  free(m);
  free(blob);

  /* Undefined operand id: the message names node 0 and its kind. */
  n.in[1] = 7;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  CHECK(parse_msg(blob, size, msg, sizeof msg) == PTERA_INVALID_PROGRAM && strstr(msg, "node 0 (XNNAdd)") &&
        strstr(msg, "input 2"));
  free(blob);
  add_graph(v, &n);
  /* A node writing an input. */
  n.out[0] = 0;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  CHECK(parse_msg(blob, size, msg, sizeof msg) == PTERA_INVALID_PROGRAM && strstr(msg, "node 0"));
  free(blob);
  add_graph(v, &n);
  /* External id out of range, and used twice. */
  v[2].external_id = 5;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  CHECK(parse_msg(blob, size, msg, sizeof msg) == PTERA_INVALID_PROGRAM && strstr(msg, "value 2") &&
        strstr(msg, "external id 5"));
  free(blob);
  v[2].external_id = 0;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  CHECK(parse_msg(blob, size, msg, sizeof msg) == PTERA_INVALID_PROGRAM && strstr(msg, "used by two"));
  free(blob);
  add_graph(v, &n);
  /* Both flags. */
  v[2].flags = 3;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  CHECK(parse_msg(blob, size, msg, sizeof msg) == PTERA_INVALID_PROGRAM);
  free(blob);
  add_graph(v, &n);
  /* Rank above XNNPACK's 6, unknown datatype code. */
  v[0].ndims = 7;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  CHECK(parse_msg(blob, size, msg, sizeof msg) == PTERA_INVALID_PROGRAM && strstr(msg, "rank 7"));
  free(blob);
  add_graph(v, &n);
  v[1].datatype = 99;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  CHECK(parse_msg(blob, size, msg, sizeof msg) == PTERA_INVALID_PROGRAM && strstr(msg, "datatype 99"));
  free(blob);
  add_graph(v, &n);
  /* Reversed clamp range. */
  n.out_min = 2.0f;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  CHECK(parse_msg(blob, size, msg, sizeof msg) == PTERA_INVALID_PROGRAM && strstr(msg, "output_min_max"));
  free(blob);
}

/* Runs the Add graph through the backend with a of shape dims (rank r). */
static ptera_status run_add(const int32_t *dims, unsigned r, float *y, int32_t *ydims, char *msg, size_t cap) {
  pc_xnn_value_desc v[3];
  pc_xnn_node_desc n;
  add_graph(v, &n);
  uint8_t *blob;
  size_t size;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, &size) == PTERA_OK);
  const ptera_backend *b = ptera_backend_find("XnnpackBackend", 14);
  ptera_backend_init_ctx ictx = {"forward", NULL, NULL, msg, cap, NULL, 0, 0, NULL, 0};
  void *h = NULL;
  ptera_status st = b->init(&ictx, blob, size, NULL, 0, &h);
  CHECK(st == PTERA_OK);
  float a[12];
  for (int i = 0; i < 12; i++) a[i] = (float)i * 0.25f - 1.0f;
  ptera_tensor ta = {0}, ty = {0};
  ta.data = a;
  ta.dtype = ty.dtype = PTERA_DTYPE_FLOAT;
  ta.dim = (uint8_t)r;
  ty.dim = 2;
  ta.numel = 1;
  for (unsigned i = 0; i < r; i++) {
    ta.sizes[i] = dims[i];
    ta.dim_order[i] = (uint8_t)i;
    ta.numel *= (size_t)dims[i];
  }
  ty.sizes[0] = 4;
  ty.sizes[1] = 3;
  ty.dim_order[1] = 1;
  ty.numel = 12;
  ty.capacity = sizeof(float) * 12;
  ty.dynamism = PTERA_SHAPE_DYNAMIC_BOUND;
  ty.data = y;
  ptera_tensor_update_strides(&ta);
  ptera_tensor_update_strides(&ty);
  ptera_value va = {PTERA_TAG_TENSOR, {.tensor = &ta}}, vy = {PTERA_TAG_TENSOR, {.tensor = &ty}};
  ptera_value *args[2] = {&va, &vy};
  ptera_backend_exec_ctx ectx = {"forward", msg, cap, NULL, 0, NULL};
  st = b->execute(&ectx, h, args, 2);
  ydims[0] = ty.sizes[0];
  ydims[1] = ty.sizes[1];
  b->destroy(h);
  free(blob);
  return st;
}

static void test_execute(void) {
  char msg[600] = "";
  float y[12];
  int32_t yd[2];
  /* Static shape: clamp(a + b, -1, 1) against a hand computation. */
  CHECK(run_add((const int32_t[]){4, 3}, 2, y, yd, msg, sizeof msg) == PTERA_OK);
  for (int i = 0; i < 12; i++) {
    float want = fminf(fmaxf((float)i * 0.25f - 1.0f + k_b[i % 3], -1.0f), 1.0f);
    CHECK(y[i] == want);
  }
  /* Dynamic: a smaller batch is propagated and the output resized. */
  CHECK(run_add((const int32_t[]){2, 3}, 2, y, yd, msg, sizeof msg) == PTERA_OK);
  CHECK(yd[0] == 2 && yd[1] == 3);
  /* A larger one exceeds the output's bound: a clean error. */
  CHECK(run_add((const int32_t[]){8, 3}, 2, y, yd, msg, sizeof msg) != PTERA_OK && msg[0]);
  /* Shapes that do not broadcast name the node. */
  CHECK(run_add((const int32_t[]){4, 2}, 2, y, yd, msg, sizeof msg) == PTERA_INVALID_ARGUMENT &&
        strstr(msg, "node 0 (XNNAdd)") && strstr(msg, "broadcast"));
}

/* The corpus's XNNPACK programs: the legacy XN00 blob without a header and
 * the current XH00 ones, and a named-data conv with its key missing. */
static void test_corpus(const char *corpus) {
  static const char *files[] = {"pte/pytorch+executorch__xnnpack_add.ff.pte",
                                "pte/corey-cole+djl-executorch-engine__native_spike_conv.pte"};
  for (size_t i = 0; i < 2; i++) {
    ptera_program *p;
    CHECK(ptera_program_load_file(check_corpus_path(corpus, files[i]), NULL, &p) == PTERA_OK);
    ptera_method *m;
    CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_OK);
    ptera_method_destroy(m);
    ptera_program_destroy(p);
  }
  /* Remove the named data: the conv's weights are then missing, and the
   * error names the delegate and the key. */
  size_t size;
  uint8_t *d = check_read_file(check_corpus_path(corpus, files[1]), &size);
  CHECK(d != NULL);
  if (!d) return;
  size_t hits = 0;
  for (size_t i = 0; i + 64 <= size; i++) { /* corrupt the first character of each stored key copy */
    if (memcmp(d + i, "4c3f6bb8c660e2c0", 16) == 0 && hits++ == 0) d[i] = 'X';
  }
  ptera_program *p;
  if (ptera_program_load_buffer(d, size, NULL, &p) == PTERA_OK) {
    ptera_method *m;
    ptera_status st = ptera_method_create(p, "forward", NULL, &m);
    CHECK(st == PTERA_NOT_FOUND && strstr(ptera_method_errmsg(m), "delegate 0") &&
          strstr(ptera_method_errmsg(m), "XnnpackBackend") && strstr(ptera_method_errmsg(m), "named data"));
    ptera_method_destroy(m);
  }
  ptera_program_destroy(p);
  free(d);
}

int main(int argc, char **argv) {
  test_reader();
  test_sdpa();
  test_execute();
  test_corpus(argc > 1 ? argv[1] : "../shared/corpus");
  return check_summary("xnngraph");
}

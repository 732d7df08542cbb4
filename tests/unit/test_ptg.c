/* The PTG reader and writer (docs/PTG.md): the spec's example checked field by
 * field against hand-chosen data, every value kind, regions, aliases, a
 * table of malformed files (each must name its line), round trips, and
 * truncations / byte corruptions that must never crash. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptg.h"

/* text followed by n data bytes, in malloc'd memory. */
static uint8_t *mk(const char *text, const void *data, size_t n, size_t *size) {
  size_t t = strlen(text);
  uint8_t *p = malloc(t + n + 1);
  memcpy(p, text, t);
  if (n) memcpy(p + t, data, n);
  *size = t + n;
  return p;
}

static ptera_status parse_text(const char *text, pc_module *m, pt_err *err) {
  return pc_ptg_parse((const uint8_t *)text, strlen(text), NULL, m, err);
}

static const char example[] =
    "ptg 1\n"
    "method forward\n"
    "value 0 tensor Float 2,4\n"
    "value 1 tensor Float 3,4 const=0:48 fqn=fc.weight\n"
    "value 2 tensor Float 3 const=48:12 fqn=fc.bias\n"
    "value 3 tensor Float 2,3\n"
    "value 4 tensor Float 2,3\n"
    "inputs 0\n"
    "outputs 4\n"
    "node aten::linear.out 0 1 2 !3\n"
    "node aten::relu.out 3 !4\n"
    "data 64\n";

static void example_data(float d[16]) {
  for (int i = 0; i < 12; i++) d[i] = 0.5f * (float)i - 1.0f; /* -1, -0.5, ..., 4.5 */
  d[12] = 1.0f;
  d[13] = -2.0f;
  d[14] = 0.25f;
  d[15] = 0.0f; /* padding */
}

static void test_example(void) {
  float d[16];
  example_data(d);
  size_t size;
  uint8_t *bytes = mk(example, d, 64, &size);
  pc_module m;
  pt_err err;
  ptera_status st = pc_ptg_parse(bytes, size, NULL, &m, &err);
  free(bytes); /* the graph holds its own copies */
  CHECK(st == PTERA_OK);
  if (st) {
    printf("  %s\n", err.msg);
    return;
  }
  CHECK(m.nmethods == 1);
  pc_graph *g = m.methods[0];
  CHECK(strcmp(g->name, "forward") == 0);
  CHECK(g->nvalues == 5);
  for (uint32_t i = 0; i < 5; i++) {
    CHECK(g->values[i].kind == PC_G_TENSOR);
    CHECK(g->values[i].u.t.dtype == PTERA_DTYPE_FLOAT);
    CHECK(g->values[i].u.t.dynamism == 0);
    CHECK(g->values[i].alias_parent == (int32_t)i);
  }
  const pc_gtensor *x = &g->values[0].u.t, *w = &g->values[1].u.t, *b = &g->values[2].u.t;
  CHECK(x->dim == 2 && x->sizes[0] == 2 && x->sizes[1] == 4 && x->store == PC_T_ACTIVATION);
  CHECK(x->data == NULL && x->nbytes == 0 && x->fqn == NULL);
  CHECK(x->dim_order[0] == 0 && x->dim_order[1] == 1);
  CHECK(w->dim == 2 && w->sizes[0] == 3 && w->sizes[1] == 4 && w->store == PC_T_CONST);
  CHECK(w->nbytes == 48 && w->fqn && strcmp(w->fqn, "fc.weight") == 0);
  CHECK(w->data && ((uintptr_t)w->data & 15) == 0);
  if (w->data) {
    float v[12];
    memcpy(v, w->data, 48);
    CHECK(v[0] == -1.0f && v[1] == -0.5f && v[11] == 4.5f);
  }
  CHECK(b->dim == 1 && b->sizes[0] == 3 && b->store == PC_T_CONST && b->nbytes == 12);
  CHECK(b->fqn && strcmp(b->fqn, "fc.bias") == 0);
  if (b->data) {
    float v[3];
    memcpy(v, b->data, 12);
    CHECK(v[0] == 1.0f && v[1] == -2.0f && v[2] == 0.25f);
  }
  CHECK(g->values[3].u.t.store == PC_T_ACTIVATION && g->values[4].u.t.sizes[1] == 3);
  CHECK(g->ninputs == 1 && g->inputs[0] == 0);
  CHECK(g->noutputs == 1 && g->outputs[0] == 4);
  CHECK(g->nnodes == 2);
  const pc_gnode *n0 = &g->nodes[0], *n1 = &g->nodes[1];
  CHECK(n0->kind == PC_N_CALL && strcmp(n0->op, "aten::linear.out") == 0 && n0->nargs == 4);
  CHECK(n0->args[0] == 0 && n0->args[1] == 1 && n0->args[2] == 2 && n0->args[3] == 3);
  CHECK(!n0->writes[0] && !n0->writes[1] && !n0->writes[2] && n0->writes[3]);
  CHECK(strcmp(n1->op, "aten::relu.out") == 0 && n1->nargs == 2 && n1->args[0] == 3 &&
        n1->args[1] == 4 && !n1->writes[0] && n1->writes[1] && !n1->removed);
  pc_module_free(&m);
  CHECK(m.methods == NULL && m.nmethods == 0);
}

static const char kinds_text[] =
    "ptg 1\n"
    "# a comment, then a blank line\n"
    "\n"
    "method m%20x\n"
    "value 0 none\n"
    "value 1 int -9223372036854775808\n"
    "value 2 int 9223372036854775807\n"
    "value 3 double 0.5\n"
    "value 4 double inf\n"
    "value 5 double -inf\n"
    "value 6 double nan\n"
    "value 7 double -1.25e-3\n"
    "value 8 bool 1\n"
    "value 9 bool 0\n"
    "value 10 str a%20b%25c%0A\n"
    "value 11 str\n"
    "value 12 ints 1,-2,3\n"
    "value 13 ints -\n"
    "value 14 doubles 0.5,-inf,nan,2\n"
    "value 15 doubles -\n"
    "value 16 bools 1,0,1\n"
    "value 17 bools -\n"
    "value 18 tensor Long -\n"
    "value 19 tensor Half 2,3,4,5 dim_order=0,2,3,1 dyn=bound\n"
    "value 20 tensor BFloat16 0,7 dyn=unbound\n"
    "value 21 tensors 18,19\n"
    "value 22 tensors -\n"
    "value 23 opt_tensors -1,20,-1\n"
    "value 24 opt_tensors -\n"
    "value 25 tensor Int 2 buffer=0:8 fqn=cache%2Ek%20v\n"
    "value 26 tensor Bool - const=16:1\n"
    "inputs\n"
    "outputs 18 20\n"
    "data 17\n";

static void test_kinds(void) {
  uint8_t data[17] = {7, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  size_t size;
  uint8_t *bytes = mk(kinds_text, data, sizeof data, &size);
  pc_module m;
  pt_err err;
  ptera_status st = pc_ptg_parse(bytes, size, NULL, &m, &err);
  free(bytes);
  CHECK(st == PTERA_OK);
  if (st) {
    printf("  %s\n", err.msg);
    return;
  }
  pc_graph *g = m.methods[0];
  const pc_gvalue *v = g->values;
  CHECK(strcmp(g->name, "m%20x") == 0); /* method names are raw tokens */
  CHECK(g->nvalues == 27);
  CHECK(v[0].kind == PC_G_NONE);
  CHECK(v[1].kind == PC_G_INT && v[1].u.i == INT64_MIN);
  CHECK(v[2].kind == PC_G_INT && v[2].u.i == INT64_MAX);
  CHECK(v[3].kind == PC_G_DOUBLE && v[3].u.d == 0.5);
  CHECK(isinf(v[4].u.d) && v[4].u.d > 0);
  CHECK(isinf(v[5].u.d) && v[5].u.d < 0);
  CHECK(isnan(v[6].u.d));
  CHECK(v[7].u.d == -1.25e-3);
  CHECK(v[8].kind == PC_G_BOOL && v[8].u.b == true && v[9].u.b == false);
  CHECK(v[10].kind == PC_G_STRING && strcmp(v[10].u.str, "a b%c\n") == 0);
  CHECK(v[11].kind == PC_G_STRING && strcmp(v[11].u.str, "") == 0);
  CHECK(v[12].kind == PC_G_INTS && v[12].u.ints.len == 3 && v[12].u.ints.items[0] == 1 &&
        v[12].u.ints.items[1] == -2 && v[12].u.ints.items[2] == 3);
  CHECK(v[13].kind == PC_G_INTS && v[13].u.ints.len == 0);
  CHECK(v[14].kind == PC_G_DOUBLES && v[14].u.doubles.len == 4 &&
        v[14].u.doubles.items[0] == 0.5 && isinf(v[14].u.doubles.items[1]) &&
        v[14].u.doubles.items[1] < 0 && isnan(v[14].u.doubles.items[2]) &&
        v[14].u.doubles.items[3] == 2.0);
  CHECK(v[15].kind == PC_G_DOUBLES && v[15].u.doubles.len == 0);
  CHECK(v[16].kind == PC_G_BOOLS && v[16].u.bools.len == 3 && v[16].u.bools.items[0] &&
        !v[16].u.bools.items[1] && v[16].u.bools.items[2]);
  CHECK(v[17].kind == PC_G_BOOLS && v[17].u.bools.len == 0);
  CHECK(v[18].kind == PC_G_TENSOR && v[18].u.t.dtype == PTERA_DTYPE_LONG && v[18].u.t.dim == 0);
  const pc_gtensor *h = &v[19].u.t;
  CHECK(h->dtype == PTERA_DTYPE_HALF && h->dim == 4 && h->sizes[3] == 5 && h->dynamism == 1);
  CHECK(h->dim_order[0] == 0 && h->dim_order[1] == 2 && h->dim_order[2] == 3 &&
        h->dim_order[3] == 1);
  CHECK(v[20].u.t.dtype == PTERA_DTYPE_BFLOAT16 && v[20].u.t.sizes[0] == 0 &&
        v[20].u.t.sizes[1] == 7 && v[20].u.t.dynamism == 2);
  CHECK(v[21].kind == PC_G_TENSORS && v[21].u.tensors.len == 2 && v[21].u.tensors.ids[0] == 18 &&
        v[21].u.tensors.ids[1] == 19);
  CHECK(v[22].kind == PC_G_TENSORS && v[22].u.tensors.len == 0);
  CHECK(v[23].kind == PC_G_OPT_TENSORS && v[23].u.tensors.len == 3 &&
        v[23].u.tensors.ids[0] == -1 && v[23].u.tensors.ids[1] == 20 &&
        v[23].u.tensors.ids[2] == -1);
  CHECK(v[24].kind == PC_G_OPT_TENSORS && v[24].u.tensors.len == 0);
  const pc_gtensor *buf = &v[25].u.t;
  CHECK(buf->store == PC_T_BUFFER && buf->nbytes == 8 && strcmp(buf->fqn, "cache.k v") == 0);
  if (buf->data) {
    int32_t x[2];
    memcpy(x, buf->data, 8);
    CHECK(x[0] == 7 && x[1] == -2);
  }
  CHECK(v[26].u.t.store == PC_T_CONST && v[26].u.t.dim == 0 && v[26].u.t.nbytes == 1 &&
        v[26].u.t.data && v[26].u.t.data[0] == 1);
  CHECK(g->ninputs == 0 && g->noutputs == 2 && g->outputs[1] == 20);
  pc_module_free(&m);
}

static void test_regions_aliases(void) {
  const char *text =
      "ptg 1\n"
      "method a\n"
      "value 0 tensor Float 4\n"
      "value 1 tensor Float 2,2\n"
      "value 2 tensor Float 4\n"
      "value 3 tensor Float 4\n"
      "value 4 tensor Float 4\n"
      "alias 2 1\n"
      "alias 1 0\n"
      "alias 4 3\n"
      "alias 2 2\n"
      "inputs 0\n"
      "outputs 4\n"
      "begin no_grad\n"
      "node aten::view_copy.out 0 !1\n"
      "begin autocast\n"
      "node aten::relu_ !2\n"
      "end\n"
      "end\n"
      "node aten::add.out 0 2 !3\n"
      "method b\n"
      "inputs\n"
      "outputs\n";
  pc_module m;
  pt_err err;
  ptera_status st = parse_text(text, &m, &err);
  CHECK(st == PTERA_OK);
  if (st) {
    printf("  %s\n", err.msg);
    return;
  }
  CHECK(m.nmethods == 2 && strcmp(m.methods[1]->name, "b") == 0 && m.methods[1]->nvalues == 0);
  pc_graph *g = m.methods[0];
  CHECK(g->nnodes == 7);
  pc_nkind want[7] = {PC_N_REGION_BEGIN, PC_N_CALL, PC_N_REGION_BEGIN, PC_N_CALL,
                      PC_N_REGION_END,   PC_N_REGION_END, PC_N_CALL};
  for (int i = 0; i < 7 && i < (int)g->nnodes; i++) CHECK(g->nodes[i].kind == want[i]);
  CHECK(strcmp(g->nodes[0].op, "no_grad") == 0 && strcmp(g->nodes[2].op, "autocast") == 0);
  CHECK(g->nodes[3].nargs == 1 && g->nodes[3].writes[0] == 1);
  CHECK(pc_graph_alias_root(g, 0) == 0 && pc_graph_alias_root(g, 1) == 0);
  CHECK(pc_graph_alias_root(g, 2) == 0);
  CHECK(pc_graph_alias_root(g, 3) == 3 && pc_graph_alias_root(g, 4) == 3);
  /* The writer joins each value to its class root (2 was linked via 1). */
  uint8_t *out;
  size_t n;
  CHECK(pc_ptg_write(&m, &out, &n, &err) == PTERA_OK);
  if (out) {
    char *s = malloc(n + 1);
    memcpy(s, out, n);
    s[n] = '\0';
    CHECK(strstr(s, "outputs 4\nalias 0 1\nalias 0 2\nalias 3 4\nbegin no_grad\n") != NULL);
    free(s);
    pt_free(NULL, out);
  }
  pc_module_free(&m);
}

/* ---- malformed inputs ---- */

#define H "ptg 1\nmethod f\n"
static const struct {
  const char *text;
  unsigned line;
} bad[] = {
    {"ptg 2\nmethod f\ninputs\noutputs\n", 1},
    {"", 1},
    {"ptg 1\n", 2},
    {"ptg 1\nvalue 0 none\n", 2},
    {H "value 1 none\ninputs\noutputs\n", 3},
    {H "value 0 int 9223372036854775808\ninputs\noutputs\n", 3},
    {H "value 0 int -9223372036854775809\ninputs\noutputs\n", 3},
    {H "value 0 int 1x\ninputs\noutputs\n", 3},
    {H "value 0 double 1e999\ninputs\noutputs\n", 3},
    {H "value 0 double infinity\ninputs\noutputs\n", 3},
    {H "value 0 bool 2\ninputs\noutputs\n", 3},
    {H "value 0 str a%2\ninputs\noutputs\n", 3},
    {H "value 0 str a%00b\ninputs\noutputs\n", 3},
    {H "value 0 ints 1,,2\ninputs\noutputs\n", 3},
    {H "value 0 ints 1,2,\ninputs\noutputs\n", 3},
    {H "value 0 float 1\ninputs\noutputs\n", 3},
    {H "value 0 int 1 2\ninputs\noutputs\n", 3},
    {H "value 0 none\nvalue 1 tensors 0\ninputs\noutputs\n", 4},
    {H "value 0 tensor Float 2\nvalue 1 tensors 0,1\ninputs\noutputs\n", 4},
    {H "value 0 tensor Float 2\nvalue 1 tensors -1\ninputs\noutputs\n", 4},
    {H "value 0 tensor Floaty 2\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float -2\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 2147483648\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 2147483647,2147483647,2147483647,2147483647\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 2 color=red\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 2 dyn=maybe\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 2,3 dim_order=0,0\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 2,3 dim_order=0\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 2 dyn=bound dyn=bound\ninputs\noutputs\n", 3},
    {H "value 0 tensor Float 2 const=0:8\ninputs\noutputs\n", 3}, /* no data line */
    {H "value 0 tensor Float 2 const=16:8\ninputs\noutputs\ndata 32\n", 6}, /* no data bytes */
    {H "value 0 none\ninputs 1\noutputs\n", 4},
    {H "value 0 none\ninputs\noutputs 0\noutputs 0\n", 6},
    {H "value 0 none\noutputs 0\n", 5},
    {H "inputs\n", 4},
    {H "inputs\noutputs\nnode aten::x.out 0\n", 5},
    {H "value 0 none\ninputs\noutputs\nnode\n", 6},
    {H "inputs\noutputs\nend\n", 5},
    {H "inputs\noutputs\nbegin no_grad\n", 6},
    {H "inputs\noutputs\nbegin no_grad\nmethod g\ninputs\noutputs\n", 6},
    {H "inputs\noutputs\nmethod f\ninputs\noutputs\n", 5},
    {H "inputs\noutputs\nfrobnicate\n", 5},
    {H "inputs  \noutputs\n", 3},
    {H "inputs\r\noutputs\n", 3},
    {H "value 0 none\nalias 0 1\ninputs\noutputs\n", 4},
    {H "inputs\noutputs\ndata x\n", 5},
    {H "inputs\noutputs\ndata 1\n", 5},
    {H "inputs\noutputs\ndata 0\nX", 5},
    {H "inputs\noutputs\ndata 0", 5},
    {H "inputs\noutputs\nvalue 0 none\nvalue 1 int 99999999999999999999\n", 6},
    /* node scope= attributes: <path>:<type>, both non-empty, after the arguments */
    {H "value 0 none\ninputs\noutputs\nnode aten::x.out 0 scope=a\n", 6},
    {H "value 0 none\ninputs\noutputs\nnode aten::x.out 0 scope=:T\n", 6},
    {H "value 0 none\ninputs\noutputs\nnode aten::x.out 0 scope=a:\n", 6},
    {H "value 0 none\ninputs\noutputs\nnode aten::x.out 0 scope=a%2:T\n", 6},
    {H "value 0 none\ninputs\noutputs\nnode aten::x.out scope=a:T 0\n", 6},
};

static void test_malformed(void) {
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pc_module m;
    pt_err err;
    ptera_status st = parse_text(bad[i].text, &m, &err);
    char want[32];
    snprintf(want, sizeof want, "line %u:", bad[i].line);
    bool ok = st == PTERA_INVALID_ARGUMENT && strstr(err.msg, want) == err.msg;
    CHECK(ok);
    if (!ok) printf("  case %zu: status %d, message '%s' (want '%s')\n", i, (int)st, err.msg, want);
    CHECK(m.nmethods == 0 && m.methods == NULL);
  }
  /* At most 10000 methods: the 10001st (line 2 + 3 * 10000) is refused. */
  size_t cap = 32 * 10002, len = 0;
  char *many = malloc(cap);
  len += (size_t)snprintf(many, cap, "ptg 1\n");
  for (int k = 0; k <= 10000; k++)
    len += (size_t)snprintf(many + len, cap - len, "method m%d\ninputs\noutputs\n", k);
  pc_module mm;
  pt_err e2;
  CHECK(parse_text(many, &mm, &e2) == PTERA_INVALID_ARGUMENT && strstr(e2.msg, "line 30002:") == e2.msg);
  many[len - strlen("method m10000\ninputs\noutputs\n")] = '\0';
  CHECK(parse_text(many, &mm, &e2) == PTERA_OK && mm.nmethods == 10000);
  pc_module_free(&mm);
  free(many);
  /* Data-section checks that need bytes. */
  uint8_t zero[64] = {0};
  const struct {
    const char *text;
    size_t n;
    unsigned line;
  } dbad[] = {
      {H "value 0 tensor Float 2 const=8:8\ninputs\noutputs\ndata 16\n", 16, 3},   /* unaligned */
      {H "value 0 tensor Float 2 const=16:8\ninputs\noutputs\ndata 16\n", 16, 3},  /* outside */
      {H "value 0 tensor Float 2 const=0:12\ninputs\noutputs\ndata 16\n", 16, 3},  /* nbytes */
      {H "value 0 tensor Float 2 buffer=0:4\ninputs\noutputs\ndata 16\n", 16, 3},  /* nbytes */
      {H "value 0 tensor Float 2 const=0:8 buffer=0:8\ninputs\noutputs\ndata 16\n", 16, 3},
      {H "value 0 tensor Float 2 const=18446744073709551600:32\ninputs\noutputs\ndata 16\n", 16, 3},
      {H "value 0 tensor Float 2 const=0:8\ninputs\noutputs\ndata 16\n", 17, 6},   /* trailing */
      {H "value 0 tensor Float 2 const=0:8\ninputs\noutputs\ndata 16\n", 15, 6},   /* short */
      {H "value 0 tensor Float 2 const=0:8\ndata 16\n", 16, 4}, /* no inputs */
  };
  for (size_t i = 0; i < sizeof dbad / sizeof dbad[0]; i++) {
    size_t size;
    uint8_t *bytes = mk(dbad[i].text, zero, dbad[i].n, &size);
    pc_module m;
    pt_err err;
    ptera_status st = pc_ptg_parse(bytes, size, NULL, &m, &err);
    free(bytes);
    char want[32];
    snprintf(want, sizeof want, "line %u:", dbad[i].line);
    bool ok = st == PTERA_INVALID_ARGUMENT && strstr(err.msg, want) == err.msg;
    CHECK(ok);
    if (!ok) printf("  data case %zu: status %d, message '%s' (want '%s')\n", i, (int)st, err.msg, want);
  }
}

/* ---- round trip ---- */

static bool tensor_eq(const pc_gtensor *a, const pc_gtensor *b) {
  if (a->dtype != b->dtype || a->dim != b->dim || a->dynamism != b->dynamism ||
      a->store != b->store || a->nbytes != b->nbytes)
    return false;
  if (memcmp(a->sizes, b->sizes, a->dim * sizeof a->sizes[0]) ||
      memcmp(a->dim_order, b->dim_order, a->dim))
    return false;
  if ((a->fqn == NULL) != (b->fqn == NULL) || (a->fqn && strcmp(a->fqn, b->fqn)))
    return false;
  return a->nbytes == 0 || memcmp(a->data, b->data, a->nbytes) == 0;
}

static bool dbl_eq(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

static bool value_eq(const pc_graph *ga, const pc_graph *gb, uint32_t i) {
  const pc_gvalue *a = &ga->values[i], *b = &gb->values[i];
  if (a->kind != b->kind) return false;
  if (pc_graph_alias_root(ga, (int32_t)i) != pc_graph_alias_root(gb, (int32_t)i)) return false;
  switch (a->kind) {
    case PC_G_NONE: return true;
    case PC_G_INT: return a->u.i == b->u.i;
    case PC_G_DOUBLE: return dbl_eq(a->u.d, b->u.d);
    case PC_G_BOOL: return a->u.b == b->u.b;
    case PC_G_STRING: return strcmp(a->u.str, b->u.str) == 0;
    case PC_G_INTS:
      return a->u.ints.len == b->u.ints.len &&
             !memcmp(a->u.ints.items, b->u.ints.items, a->u.ints.len * 8);
    case PC_G_DOUBLES:
      if (a->u.doubles.len != b->u.doubles.len) return false;
      for (uint32_t k = 0; k < a->u.doubles.len; k++)
        if (!dbl_eq(a->u.doubles.items[k], b->u.doubles.items[k])) return false;
      return true;
    case PC_G_BOOLS:
      return a->u.bools.len == b->u.bools.len &&
             !memcmp(a->u.bools.items, b->u.bools.items, a->u.bools.len);
    case PC_G_TENSORS:
    case PC_G_OPT_TENSORS:
      return a->u.tensors.len == b->u.tensors.len &&
             !memcmp(a->u.tensors.ids, b->u.tensors.ids, a->u.tensors.len * 4);
    case PC_G_TENSOR: return tensor_eq(&a->u.t, &b->u.t);
  }
  return false;
}

static bool graph_eq(const pc_graph *a, const pc_graph *b) {
  if (strcmp(a->name, b->name) || a->nvalues != b->nvalues || a->nnodes != b->nnodes ||
      a->ninputs != b->ninputs || a->noutputs != b->noutputs)
    return false;
  for (uint32_t i = 0; i < a->nvalues; i++)
    if (!value_eq(a, b, i)) return false;
  if (memcmp(a->inputs, b->inputs, a->ninputs * 4) || memcmp(a->outputs, b->outputs, a->noutputs * 4))
    return false;
  for (uint32_t k = 0; k < a->nnodes; k++) {
    const pc_gnode *x = &a->nodes[k], *y = &b->nodes[k];
    if (x->kind != y->kind || x->nargs != y->nargs) return false;
    if (x->kind != PC_N_REGION_END && strcmp(x->op, y->op)) return false;
    if (memcmp(x->args, y->args, x->nargs * 4) || memcmp(x->writes, y->writes, x->nargs))
      return false;
  }
  return true;
}

static void test_roundtrip(void) {
  /* A module built through the graph API: two methods, consts in both. */
  pc_module m = {NULL, 0, NULL};
  pc_graph *gs[2] = {pc_graph_new(NULL, "forward"), pc_graph_new(NULL, "step")};
  m.methods = gs;
  m.nmethods = 2;
  pc_graph *g = gs[0];
  int32_t sz[2] = {3, 1};
  float w[3] = {1.5f, -2.0f, 3.25f};
  int32_t x = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, sz, PC_T_ACTIVATION, NULL, 0, NULL);
  int32_t c = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, sz, PC_T_CONST, w, 12, "p.w eight%");
  int32_t y = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, sz, PC_T_ACTIVATION, NULL, 0, NULL);
  g->values[y].u.t.dim_order[0] = 1;
  g->values[y].u.t.dim_order[1] = 0;
  g->values[y].u.t.dynamism = 1;
  pc_graph_double(g, -0.0);
  pc_graph_double(g, 1e-310);
  pc_graph_double(g, NAN);
  pc_graph_string(g, "tab\there");
  pc_graph_string(g, "");
  int64_t li[2] = {INT64_MIN, 5};
  pc_graph_ints(g, li, 2);
  int32_t tl[3] = {x, -1, c};
  pc_graph_tensor_list(g, tl, 3, true);
  pc_graph_alias(g, y, x);
  pc_graph_set_inputs(g, &x, 1);
  pc_graph_set_outputs(g, &y, 1);
  pc_graph_region(g, true, "no_grad");
  int32_t args[3] = {x, c, y};
  uint8_t wr[3] = {0, 0, 1};
  int32_t add = pc_graph_call(g, "aten::add.out", args, wr, 3);
  const pc_gscope scope[2] = {{"layers.0", "Seq uential"}, {"layers.0.fc:x", "Linear"}};
  const pc_gscope colon[1] = {{"a", "b:c"}}, empty[1] = {{"", "T"}};
  CHECK(pc_graph_set_scope(g, (uint32_t)add, colon, 1) == PTERA_INVALID_ARGUMENT);
  CHECK(pc_graph_set_scope(g, (uint32_t)add, empty, 1) == PTERA_INVALID_ARGUMENT);
  pt_err_clear(&g->err);
  CHECK(pc_graph_set_scope(g, (uint32_t)add, scope, 2) == PTERA_OK);
  pc_graph_region(g, false, NULL);
  int64_t kv[5] = {1, 2, 3, 4, 5};
  int32_t s5 = 5;
  int32_t kb = pc_graph_tensor(gs[1], PTERA_DTYPE_LONG, 1, &s5, PC_T_BUFFER, kv, 40, "kv");
  pc_graph_set_inputs(gs[1], NULL, 0);
  pc_graph_set_outputs(gs[1], &kb, 1);
  CHECK(g->err.status == PTERA_OK && gs[1]->err.status == PTERA_OK);

  uint8_t *out = NULL, *out2 = NULL;
  size_t n = 0, n2 = 0;
  pt_err err;
  CHECK(pc_ptg_write(&m, &out, &n, &err) == PTERA_OK);
  /* Offsets are 16-aligned: the 12-byte const at 0, the buffer at 16. */
  char *text = malloc(n + 1);
  memcpy(text, out, n);
  text[n] = '\0';
  CHECK(strstr(text, "value 1 tensor Float 3,1 const=0:12 fqn=p.w%20eight%25\n") != NULL);
  CHECK(strstr(text, "value 0 tensor Long 5 buffer=16:40 fqn=kv\n") != NULL);
  CHECK(strstr(text, "value 2 tensor Float 3,1 dim_order=1,0 dyn=bound\n") != NULL);
  CHECK(strstr(text, "value 3 double -0\n") != NULL);
  CHECK(strstr(text, "value 5 double nan\nvalue 6 str tab%09here\nvalue 7 str\n") != NULL);
  CHECK(strstr(text, "value 8 ints -9223372036854775808,5\nvalue 9 opt_tensors 0,-1,1\n") != NULL);
  CHECK(strstr(text, "alias 0 2\nbegin no_grad\nnode aten::add.out 0 1 !2 scope=layers.0:Seq%20uential "
                    "scope=layers.0.fc:x:Linear\nend\nmethod step\n"));
  CHECK(strstr(text, "\ndata 64\n") != NULL && n >= 64);
  free(text);
  pc_module back;
  ptera_status st = pc_ptg_parse(out, n, NULL, &back, &err);
  CHECK(st == PTERA_OK);
  if (st == PTERA_OK) {
    CHECK(back.nmethods == 2);
    CHECK(graph_eq(gs[0], back.methods[0]) && graph_eq(gs[1], back.methods[1]));
    CHECK(signbit(back.methods[0]->values[3].u.d));
    const pc_gnode *bn = &back.methods[0]->nodes[add];
    CHECK(bn->nscope == 2 && strcmp(bn->scope[0].path, "layers.0") == 0 &&
          strcmp(bn->scope[0].type, "Seq uential") == 0 && strcmp(bn->scope[1].path, "layers.0.fc:x") == 0 &&
          strcmp(bn->scope[1].type, "Linear") == 0);
    CHECK(back.methods[0]->nodes[0].nscope == 0); /* the region marker */
    CHECK(pc_ptg_write(&back, &out2, &n2, &err) == PTERA_OK);
    CHECK(n2 == n && out2 && memcmp(out, out2, n) == 0);
    pt_free(NULL, out2);
    pc_module_free(&back);
  } else {
    printf("  %s\n", err.msg);
  }
  pt_free(NULL, out);
  /* The spec's example round-trips byte for byte. */
  float d[16];
  example_data(d);
  size_t size;
  uint8_t *bytes = mk(example, d, 64, &size);
  if (pc_ptg_parse(bytes, size, NULL, &back, &err) == PTERA_OK) {
    CHECK(pc_ptg_write(&back, &out, &n, &err) == PTERA_OK);
    CHECK(n == size && memcmp(out, bytes, n) == 0);
    pt_free(NULL, out);
    pc_module_free(&back);
  } else {
    CHECK(0);
  }
  free(bytes);
  /* Writer rejects what it cannot spell. */
  pc_graph *bad_name = pc_graph_new(NULL, "two words");
  pc_module mb = {&bad_name, 1, NULL};
  CHECK(pc_ptg_write(&mb, &out, &n, &err) == PTERA_INVALID_ARGUMENT && out == NULL);
  pc_graph_free(bad_name);
  pc_graph_free(gs[0]);
  pc_graph_free(gs[1]);
}

/* ---- robustness ---- */

static unsigned robust_ok, robust_err;
static void try_parse(const uint8_t *p, size_t n) {
  uint8_t *copy = malloc(n ? n : 1);
  if (n) memcpy(copy, p, n);
  pc_module m;
  pt_err err;
  ptera_status st = pc_ptg_parse(copy, n, NULL, &m, &err);
  CHECK(st == PTERA_OK || st == PTERA_INVALID_ARGUMENT);
  if (st == PTERA_OK) {
    robust_ok++;
    uint8_t *out;
    size_t on;
    CHECK(pc_ptg_write(&m, &out, &on, &err) == PTERA_OK);
    pt_free(NULL, out);
    pc_module_free(&m);
  } else {
    robust_err++;
    CHECK(strncmp(err.msg, "line ", 5) == 0 && m.nmethods == 0);
  }
  free(copy);
}

static void test_robust(void) {
  uint8_t data[17] = {7, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  size_t size;
  uint8_t *bytes = mk(kinds_text, data, sizeof data, &size);
  int before = check_failures;
  for (size_t cut = 0; cut <= size; cut++) try_parse(bytes, cut);
  static const uint8_t subs[] = {0x00, ' ', '\n', '0', '9', '-', ',', '%', '!', 0xff};
  for (size_t i = 0; i < size; i++)
    for (size_t k = 0; k < sizeof subs; k++) {
      uint8_t save = bytes[i];
      if (save == subs[k]) continue;
      bytes[i] = subs[k];
      try_parse(bytes, size);
      bytes[i] = save;
    }
  CHECK(robust_ok > 0 && robust_err > 0);
  if (check_failures != before) printf("  robustness failures above\n");
  free(bytes);
}

/* ---- allocation failures ---- */

static size_t live, calls, fail_at; /* fail_at: 1-based call to fail, 0 = never */
static void *test_alloc(void *ud, size_t size, size_t align) {
  (void)ud;
  if (fail_at && ++calls == fail_at) return NULL;
  if (align < 16) align = 16;
  void *p = aligned_alloc(align, (size + align - 1) & ~(align - 1));
  if (p) live++;
  return p;
}
static void test_free(void *ud, void *p) {
  (void)ud;
  if (p) live--;
  free(p);
}
static const ptera_allocator failing = {test_alloc, test_free, NULL};

static void test_alloc_failures(void) {
  uint8_t data[17] = {0};
  size_t size;
  uint8_t *bytes = mk(kinds_text, data, sizeof data, &size);
  bool parsed = false, written = false;
  for (fail_at = 1; fail_at < 10000 && !(parsed && written); fail_at++) {
    calls = 0;
    pc_module m;
    pt_err err;
    ptera_status st = pc_ptg_parse(bytes, size, &failing, &m, &err);
    CHECK(st == PTERA_OK || st == PTERA_MEMORY_ALLOCATION_FAILED);
    if (st == PTERA_OK) {
      parsed = true;
      uint8_t *out = NULL;
      size_t n;
      st = pc_ptg_write(&m, &out, &n, &err); /* fails at each of its allocations in turn */
      CHECK(st == PTERA_OK || (st == PTERA_MEMORY_ALLOCATION_FAILED && out == NULL));
      if (st == PTERA_OK) written = true;
      pt_free(&failing, out);
      pc_module_free(&m);
    }
    CHECK(live == 0);
  }
  CHECK(parsed && written);
  fail_at = 0;
  free(bytes);
}

int main(void) {
  test_example();
  test_kinds();
  test_regions_aliases();
  test_malformed();
  test_roundtrip();
  test_robust();
  test_alloc_failures();
  return check_summary("ptg");
}

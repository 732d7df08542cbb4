/* Load-time fusion of convolution -> [batch norm] -> [relu | hardtanh | clamp]
 * on hand-built programs: each program runs fused and with
 * PTERA_METHOD_NO_FUSION (the portable kernels, one by one), on random
 * shapes and values with NaN / +-inf / -0.0 sprinkled in, for every ISA
 * variant, with and without threads; the profiling hook tells whether a
 * group fused. Negative cases: an intermediate that is a method output, is
 * read elsewhere, or shares memory with a value read later does not fuse.
 * Allocation failures during the fused prepare fail method create cleanly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/conv2d.h"
#include "cpu/isa.h"
#include "emit_util.h"

static uint32_t rng = 2024u;

enum act { ACT_NONE, ACT_RELU, ACT_HARDTANH, ACT_CLAMP };
enum neg { NEG_NONE, NEG_T1_OUTPUT, NEG_T1_READ, NEG_ALIAS };

typedef struct cfg {
  int n, cin, h, w, cout, kh, kw, stride, pad, dil, groups;
  bool bias, bn, bn_affine;
  enum act act;
  bool reuse;     /* y takes x's memory (x dies at the convolution) */
  bool edge;      /* NaN, +-inf, -0.0 in x */
  enum neg neg;
} cfg;

/* Value indices of the program. */
enum {
  V_X, V_W, V_B, V_STRIDE, V_PAD, V_DIL, V_TR, V_OPAD, V_GROUPS, V_T1,
  V_BW, V_BB, V_RM, V_RV, V_MOM, V_EPS, V_T2, V_S1, V_S2, V_BNLIST,
  V_LO, V_HI, V_Y, V_Z, V_ALIAS, V_ONE, V_I0, V_I1, V_I2, V_I3, V_I4, V_I5, V_NVALUES
};

typedef struct prog {
  pc_value values[V_NVALUES];
  int32_t lists[4][2], bnlist[3];
  int32_t args[4][12];
  pc_instr instrs[4];
  int64_t bufsize;
  float *w, *b, *bw, *bb, *rm, *rv;
  size_t nx, ny, nw;
  int oh, ow;
} prog;

static float *rand_floats(size_t n, float lo, float hi) {
  float *p = malloc(n * sizeof *p + 1);
  for (size_t i = 0; i < n; i++) p[i] = eu_frand(&rng, lo, hi);
  return p;
}

static pc_value const_f(int dim, const int32_t *sizes, const float *data, size_t n) {
  pc_value v = eu_tensor_f(PC_STORAGE_CONST, (uint8_t)dim, sizes);
  v.u.tensor.data = data;
  v.u.tensor.nbytes = n * sizeof(float);
  return v;
}

static const pc_operator ops[] = {{"aten::convolution", "out"},
                                  {"aten::_native_batch_norm_legit_no_training", "out"},
                                  {"aten::relu", "out"},
                                  {"aten::hardtanh", "out"},
                                  {"aten::clamp", "out"},
                                  {"aten::add", "out"}};

/* The program of c: x -> conv -> t1 [-> bn -> t2] [-> act] -> y; returns the
 * number of instructions. */
static uint32_t build(prog *p, const cfg *c) {
  memset(p, 0, sizeof *p);
  p->oh = (c->h + 2 * c->pad - c->dil * (c->kh - 1) - 1) / c->stride + 1;
  p->ow = (c->w + 2 * c->pad - c->dil * (c->kw - 1) - 1) / c->stride + 1;
  int32_t xs[4] = {c->n, c->cin, c->h, c->w}, ws[4] = {c->cout, c->cin / c->groups, c->kh, c->kw};
  int32_t ys[4] = {c->n, c->cout, p->oh, p->ow}, cs[1] = {c->cout}, zero[1] = {0};
  p->nx = (size_t)c->n * c->cin * c->h * c->w;
  p->ny = (size_t)c->n * c->cout * p->oh * p->ow;
  p->nw = (size_t)ws[0] * ws[1] * ws[2] * ws[3];
  p->w = rand_floats(p->nw, -1, 1);
  p->b = rand_floats((size_t)c->cout, -1, 1);
  p->bw = rand_floats((size_t)c->cout, 0.5f, 2);
  p->bb = rand_floats((size_t)c->cout, -1, 1);
  p->rm = rand_floats((size_t)c->cout, -0.5f, 0.5f);
  p->rv = rand_floats((size_t)c->cout, 0.1f, 2);
  pc_value *v = p->values;
  size_t ox = 0, o1 = eu_up64(p->nx * 4), o2 = o1 + eu_up64(p->ny * 4), oy = o2 + eu_up64(p->ny * 4);
  p->bufsize = (int64_t)(oy + 2 * eu_up64(p->ny * 4));
  v[V_X] = eu_planned_f(4, xs, ox);
  v[V_W] = const_f(4, ws, p->w, p->nw);
  v[V_B] = c->bias ? const_f(1, cs, p->b, (size_t)c->cout) : (pc_value){.kind = PC_VAL_NULL};
  int64_t ints[6] = {c->stride, c->pad, c->dil, 0, c->groups, 1};
  for (int i = 0; i < 6; i++) v[V_I0 + i] = eu_int(ints[i]);
  p->lists[0][0] = p->lists[0][1] = V_I0;
  p->lists[1][0] = p->lists[1][1] = V_I1;
  p->lists[2][0] = p->lists[2][1] = V_I2;
  p->lists[3][0] = p->lists[3][1] = V_I3;
  int lv[4] = {V_STRIDE, V_PAD, V_DIL, V_OPAD};
  for (int i = 0; i < 4; i++) {
    v[lv[i]].kind = PC_VAL_INT_LIST;
    v[lv[i]].u.list.items = p->lists[i];
    v[lv[i]].u.list.len = 2;
  }
  v[V_TR].kind = PC_VAL_BOOL;
  v[V_GROUPS] = eu_int(c->groups);
  v[V_ONE] = eu_int(1);
  v[V_T1] = eu_planned_f(4, ys, o1);
  v[V_BW] = c->bn_affine ? const_f(1, cs, p->bw, (size_t)c->cout) : (pc_value){.kind = PC_VAL_NULL};
  v[V_BB] = c->bn_affine ? const_f(1, cs, p->bb, (size_t)c->cout) : (pc_value){.kind = PC_VAL_NULL};
  v[V_RM] = const_f(1, cs, p->rm, (size_t)c->cout);
  v[V_RV] = const_f(1, cs, p->rv, (size_t)c->cout);
  v[V_MOM].kind = v[V_EPS].kind = PC_VAL_DOUBLE;
  v[V_MOM].u.d = 0.1;
  v[V_EPS].u.d = 1e-5;
  v[V_T2] = eu_planned_f(4, ys, o2);
  v[V_S1] = eu_planned_f(1, zero, oy);
  v[V_S2] = eu_planned_f(1, zero, oy);
  p->bnlist[0] = V_T2;
  p->bnlist[1] = V_S1;
  p->bnlist[2] = V_S2;
  v[V_BNLIST].kind = PC_VAL_TENSOR_LIST;
  v[V_BNLIST].u.list.items = p->bnlist;
  v[V_BNLIST].u.list.len = 3;
  v[V_LO].kind = v[V_HI].kind = PC_VAL_DOUBLE;
  v[V_LO].u.d = c->act == ACT_CLAMP ? -0.5 : 0.0;
  v[V_HI].u.d = 6.0;
  if (c->act == ACT_CLAMP) v[V_HI].kind = PC_VAL_NULL;
  v[V_Y] = eu_planned_f(4, ys, c->reuse && p->nx * 4 >= p->ny * 4 ? ox : oy);
  v[V_Z] = eu_planned_f(4, ys, oy + eu_up64(p->ny * 4));
  /* A second name for t1's memory (what an alias in a plan looks like). */
  v[V_ALIAS] = eu_planned_f(4, ys, o1);
  uint32_t k = 0;
  int32_t *a = p->args[k];
  const int32_t conv[11] = {V_X, V_W, V_B, V_STRIDE, V_PAD, V_DIL, V_TR, V_OPAD, V_GROUPS, V_T1, V_T1};
  memcpy(a, conv, sizeof conv);
  p->instrs[k++] = (pc_instr){0, p->args[0], 11, false};
  int32_t cur = V_T1;
  if (c->bn) {
    const int32_t bn[11] = {V_T1, V_BW, V_BB, V_RM, V_RV, V_MOM, V_EPS, V_T2, V_S1, V_S2, V_BNLIST};
    memcpy(p->args[k], bn, sizeof bn);
    p->instrs[k] = (pc_instr){1, p->args[k], 11, false};
    k++;
    cur = V_T2;
  }
  int32_t last = cur;
  if (c->act != ACT_NONE) {
    a = p->args[k];
    if (c->act == ACT_RELU) {
      a[0] = cur, a[1] = a[2] = V_Y;
      p->instrs[k] = (pc_instr){2, a, 3, false};
    } else {
      a[0] = cur, a[1] = V_LO, a[2] = V_HI, a[3] = a[4] = V_Y;
      p->instrs[k] = (pc_instr){c->act == ACT_HARDTANH ? 3u : 4u, a, 5, false};
    }
    k++;
    last = V_Y;
  }
  if (c->neg == NEG_T1_READ || c->neg == NEG_ALIAS) {
    a = p->args[k];
    a[0] = last, a[1] = c->neg == NEG_T1_READ ? V_T1 : V_ALIAS, a[2] = V_ONE, a[3] = a[4] = V_Z;
    p->instrs[k] = (pc_instr){5, a, 5, false};
    k++;
  }
  return k;
}

static void free_prog(prog *p) {
  free(p->w);
  free(p->b);
  free(p->bw);
  free(p->bb);
  free(p->rm);
  free(p->rv);
}

typedef struct seen {
  char name[64];
  int fused;
  size_t packed_bytes; /* the method's prepare-time memory */
} seen;

static void hook(void *user, const ptera_instr_event *ev) {
  seen *s = user;
  if (ev->end || strncmp(ev->name, "fused:", 6) != 0) return;
  s->fused++;
  snprintf(s->name, sizeof s->name, "%s", ev->name);
}

/* Creates and runs forward on x; the outputs go to out[0..noutputs). */
static bool run(ptera_program *prog_, uint32_t flags, ptera_threadpool *pool, const float *x,
                const int32_t *xs, size_t nx, float **out, size_t *nout, seen *s) {
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  ptera_status st = ptera_method_create(prog_, "forward", &mo, &m);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    fprintf(stderr, "create: %s\n", ptera_method_errmsg(m));
    ptera_method_destroy(m);
    return false;
  }
  memset(s, 0, sizeof *s);
  ptera_method_memory mem = PTERA_METHOD_MEMORY_INIT;
  CHECK(ptera_method_get_memory(m, &mem) == PTERA_OK);
  s->packed_bytes = mem.packed_bytes;
  ptera_method_set_instr_hook(m, hook, s);
  bool ok = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 4, xs, x, nx * 4) == PTERA_OK &&
            ptera_method_execute(m) == PTERA_OK;
  CHECK(ok);
  if (!ok) fprintf(stderr, "run: %s\n", ptera_method_errmsg(m));
  for (size_t i = 0; ok && i < ptera_method_output_count(m); i++) {
    const ptera_tensor *t = ptera_method_output(m, i)->u.tensor;
    out[i] = malloc(t->numel * 4 + 1);
    memcpy(out[i], t->data, t->numel * 4);
    nout[i] = t->numel;
  }
  ptera_method_destroy(m);
  return ok;
}

static bool same(const float *a, const float *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (isnan(a[i]) || isnan(b[i])) {
      if (isnan(a[i]) != isnan(b[i])) return false;
      continue;
    }
    if (isinf(a[i]) || isinf(b[i])) {
      if (a[i] != b[i]) return false;
      continue;
    }
    if (fabsf(a[i] - b[i]) > 1e-4f + 1e-4f * fabsf(b[i])) {
      fprintf(stderr, "at %zu: fused %g, unfused %g\n", i, (double)a[i], (double)b[i]);
      return false;
    }
  }
  return true;
}

static const char *expected_name(const cfg *c) {
  static char buf[64];
  static const char *acts[] = {"", "+relu", "+hardtanh", "+clamp"};
  snprintf(buf, sizeof buf, "fused:conv%s%s", c->bn ? "+bn" : "", acts[c->act]);
  return buf;
}

/* Builds c, runs it fused and unfused (pool NULL and pool), compares. */
static void check_case(const cfg *c, ptera_threadpool *pool) {
  prog p;
  uint32_t ninstrs = build(&p, c);
  int32_t in0[1] = {V_X}, outs[2] = {V_Y, V_Z};
  uint32_t nouts = 1;
  int32_t last = c->act != ACT_NONE ? V_Y : c->bn ? V_T2 : V_T1;
  outs[0] = last;
  if (c->neg == NEG_T1_OUTPUT) outs[nouts++] = V_T1;
  if (c->neg == NEG_T1_READ || c->neg == NEG_ALIAS) outs[nouts++] = V_Z;
  pc_method method = {"forward", p.values, V_NVALUES, in0, 1, outs, nouts, p.instrs, ninstrs,
                      ops, 6, &p.bufsize, 1, NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *prog_ = file ? eu_load(file, size) : NULL;
  float *x = rand_floats(p.nx, -2, 2);
  if (c->edge)
    for (size_t i = 0; i < p.nx; i += 7) {
      static const float edges[4] = {NAN, INFINITY, -INFINITY, -0.0f};
      x[i] = edges[(i / 7) % 4];
    }
  int32_t xs[4] = {c->n, c->cin, c->h, c->w};
  float *a[2] = {0}, *b[2] = {0};
  size_t na[2] = {0}, nb[2] = {0};
  seen sa, sb;
  if (prog_ && run(prog_, 0, pool, x, xs, p.nx, a, na, &sa) &&
      run(prog_, PTERA_METHOD_NO_FUSION, pool, x, xs, p.nx, b, nb, &sb)) {
    CHECK(sb.fused == 0);
    bool want = c->neg == NEG_NONE && (c->bn || c->act != ACT_NONE);
    CHECK(sa.fused == (want ? 1 : 0));
    if (want) CHECK(strcmp(sa.name, expected_name(c)) == 0);
    if (want) { /* a folded batch norm keeps no filter copy beside the packed filters */
      char msg[160];
      pk_conv2d_geom g = {.n = c->n, .c_in = c->cin, .h = c->h, .w = c->w, .c_out = c->cout,
                          .groups = c->groups, .kh = c->kh, .kw = c->kw, .stride = {c->stride, c->stride},
                          .pad = {c->pad, c->pad}, .dil = {c->dil, c->dil}};
      CHECK(pk_conv2d_geom_init(&g, msg, sizeof msg) == PTERA_OK);
      size_t pack = pk_conv2d_f32_pack_size(&g);
      size_t wbytes = (size_t)c->cout * (size_t)(c->cin / c->groups * c->kh * c->kw) * sizeof(float);
      if (pack) CHECK(sa.packed_bytes >= pack && sa.packed_bytes <= pack + (size_t)c->cout * 4 + 512);
      if (!pack && c->bn) CHECK(sa.packed_bytes >= wbytes);
    }
    for (uint32_t i = 0; i < nouts; i++) {
      CHECK(na[i] == nb[i] && na[i] > 0);
      if (na[i] == nb[i]) CHECK(same(a[i], b[i], na[i]));
    }
  }
  for (int i = 0; i < 2; i++) {
    free(a[i]);
    free(b[i]);
  }
  free(x);
  ptera_program_destroy(prog_);
  pt_free(NULL, file);
  free_prog(&p);
}

static cfg random_cfg(void) {
  cfg c;
  memset(&c, 0, sizeof c);
  bool dw = eu_irand(&rng, 0, 3) == 0;
  c.n = eu_irand(&rng, 1, 2);
  c.cin = eu_irand(&rng, 1, 9);
  c.groups = dw ? c.cin : (c.cin % 2 == 0 && eu_irand(&rng, 0, 3) == 0 ? 2 : 1);
  c.cout = dw ? c.cin : c.groups * eu_irand(&rng, 1, 9);
  c.kh = c.kw = dw ? (eu_irand(&rng, 0, 1) ? 3 : 5) : eu_irand(&rng, 1, 3);
  if (eu_irand(&rng, 0, 4) == 0) c.kw = eu_irand(&rng, 1, 3);
  c.stride = eu_irand(&rng, 1, 2);
  c.pad = eu_irand(&rng, 0, 2);
  c.dil = eu_irand(&rng, 0, 4) == 0 ? 2 : 1;
  c.h = eu_irand(&rng, c.dil * (c.kh - 1) + 1, 14);
  c.w = eu_irand(&rng, c.dil * (c.kw - 1) + 1, 14);
  c.bias = eu_irand(&rng, 0, 1);
  c.bn = eu_irand(&rng, 0, 3) != 0;
  c.bn_affine = eu_irand(&rng, 0, 3) != 0;
  c.act = (enum act)eu_irand(&rng, c.bn ? 0 : 1, 3);
  c.reuse = eu_irand(&rng, 0, 1);
  c.edge = eu_irand(&rng, 0, 3) == 0;
  return c;
}

static void negative_cases(void) {
  cfg c = {1, 4, 6, 6, 5, 3, 3, 1, 1, 1, 1, true, true, true, ACT_RELU, false, false, NEG_NONE};
  for (int neg = NEG_T1_OUTPUT; neg <= NEG_ALIAS; neg++) {
    c.neg = (enum neg)neg;
    check_case(&c, NULL);
  }
}

/* Fails allocation n = 1, 2, ... of method create until it succeeds: each
 * failure is MemoryAllocationFailed with nothing left live; the success
 * has the group fused. */
static void alloc_failures(void) {
  cfg c = {1, 3, 5, 5, 4, 3, 3, 1, 1, 1, 1, true, true, true, ACT_HARDTANH, false, false, NEG_NONE};
  prog p;
  uint32_t ninstrs = build(&p, &c);
  int32_t in0[1] = {V_X}, out[1] = {V_Y};
  pc_method method = {"forward", p.values, V_NVALUES, in0, 1, out, 1, p.instrs, ninstrs,
                      ops, 6, &p.bufsize, 1, NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *prog_ = file ? eu_load(file, size) : NULL;
  size_t failures = 0;
  for (size_t n = 1; prog_ && n < 200; n++) {
    eu_live = eu_calls = 0;
    eu_fail_at = n;
    ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
    mo.allocator = &eu_tracking;
    ptera_method *m = NULL;
    ptera_status st = ptera_method_create(prog_, "forward", &mo, &m);
    if (st == PTERA_OK) {
      eu_fail_at = 0;
      seen s;
      memset(&s, 0, sizeof s);
      ptera_method_set_instr_hook(m, hook, &s);
      float x[75] = {0};
      int32_t xs[4] = {1, 3, 5, 5};
      CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 4, xs, x, sizeof x) == PTERA_OK);
      CHECK(ptera_method_execute(m) == PTERA_OK && s.fused == 1);
      ptera_method_destroy(m);
      CHECK(eu_live == 0);
      break;
    }
    failures++;
    CHECK(st == PTERA_MEMORY_ALLOCATION_FAILED);
    ptera_method_destroy(m);
    CHECK(eu_live == 0);
  }
  eu_fail_at = 0;
  /* The fused prepare's own allocations (folded filters, bias, packed
   * filters, state) come after the method's planned buffers and arena. */
  CHECK(failures >= 5);
  ptera_program_destroy(prog_);
  pt_free(NULL, file);
  free_prog(&p);
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  static const cfg fixed[] = {
      {1, 3, 8, 8, 4, 3, 3, 1, 1, 1, 1, true, true, true, ACT_RELU, false, false, NEG_NONE},
      {1, 6, 9, 9, 6, 3, 3, 2, 1, 1, 6, false, true, false, ACT_HARDTANH, true, false, NEG_NONE},
      {2, 8, 5, 5, 16, 1, 1, 1, 0, 1, 1, false, false, false, ACT_CLAMP, true, true, NEG_NONE},
      {2, 4, 10, 10, 4, 3, 3, 1, 2, 2, 1, true, true, true, ACT_NONE, false, true, NEG_NONE},
      {1, 8, 7, 7, 8, 5, 5, 2, 2, 1, 8, true, true, true, ACT_RELU, true, true, NEG_NONE},
      /* batch norm folded into each packing: Winograd, depthwise through
       * channels last, pixels as rows, and
       * the forward path, with groups and more channels than one scaling
       * chunk (256) */
      {1, 16, 12, 12, 20, 3, 3, 1, 1, 1, 1, true, true, true, ACT_RELU, false, false, NEG_NONE},
      {2, 24, 7, 7, 24, 3, 3, 1, 1, 1, 24, true, true, true, ACT_HARDTANH, false, true, NEG_NONE},
      {2, 4, 6, 6, 40, 3, 3, 1, 1, 1, 1, false, true, true, ACT_CLAMP, false, false, NEG_NONE},
      {1, 4, 9, 9, 300, 1, 1, 1, 0, 1, 2, true, true, false, ACT_NONE, false, false, NEG_NONE},
      {1, 4, 5, 5, 300, 1, 1, 1, 0, 1, 2, true, true, true, ACT_HARDTANH, false, false, NEG_NONE},
  };
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
      check_case(&fixed[i], NULL);
      check_case(&fixed[i], pool);
    }
    for (int i = 0; i < 12; i++) {
      cfg c = random_cfg();
      check_case(&c, i % 2 ? pool : NULL);
    }
  }
  pk_isa_force(PK_ISA_COUNT);
  negative_cases();
  alloc_failures();
  ptera_threadpool_destroy(pool);
  return check_summary("fuse_conv");
}

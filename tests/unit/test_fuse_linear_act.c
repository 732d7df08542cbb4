/* Load-time fusion of linear -> [et_view] -> relu | hardtanh | clamp on
 * hand-built programs, each run fused and with PTERA_METHOD_NO_FUSION (the
 * portable kernels one by one): random shapes, bias or none, NaN / +-inf /
 * -0.0 inputs, the output in the input's memory (staged), every ISA, with
 * and without threads; the profiling hook tells whether the group fused.
 * Negative: the linear's output also read by a later add -> not fused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/isa.h"
#include "emit_util.h"

static uint32_t rng = 77u;

enum act { ACT_RELU, ACT_HARDTANH, ACT_CLAMP };

typedef struct cfg {
  int b, m, k, n;
  bool bias, view, reuse, edge, t1_read;
  enum act act;
} cfg;

enum { V_X, V_W, V_B, V_T1, V_SIZES, V_V, V_LO, V_HI, V_Y, V_ONE, V_Z, V_I0, V_I1, V_I2, V_NVALUES };

static float *rand_floats(size_t n, float lo, float hi) {
  float *p = malloc(n * sizeof *p + 1);
  for (size_t i = 0; i < n; i++) p[i] = eu_frand(&rng, lo, hi);
  return p;
}

static const pc_operator ops[] = {{"aten::linear", "out"},
                                  {"executorch_prim::et_view", "default"},
                                  {"aten::relu", "out"},
                                  {"aten::hardtanh", "out"},
                                  {"aten::clamp", "out"},
                                  {"aten::add", "out"}};

typedef struct seen {
  char name[64];
  int fused;
} seen;

static void hook(void *user, const ptera_instr_event *ev) {
  seen *s = user;
  if (ev->end || strncmp(ev->name, "fused:", 6) != 0) return;
  s->fused++;
  snprintf(s->name, sizeof s->name, "%s", ev->name);
}

static bool run(ptera_program *p, uint32_t flags, ptera_threadpool *pool, const float *x,
                const int32_t *xs, size_t nx, float **out, size_t *nout, size_t nouts, seen *s) {
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  bool ok = ptera_method_create(p, "forward", &mo, &m) == PTERA_OK;
  memset(s, 0, sizeof *s);
  if (ok) {
    ptera_method_set_instr_hook(m, hook, s);
    ok = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 2, xs, x, nx * 4) == PTERA_OK &&
         ptera_method_execute(m) == PTERA_OK;
  }
  CHECK(ok);
  if (!ok) fprintf(stderr, "%s\n", ptera_method_errmsg(m));
  for (size_t i = 0; ok && i < nouts; i++) {
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
    } else if (fabsf(a[i] - b[i]) > 1e-4f + 1e-4f * fabsf(b[i]) && a[i] != b[i]) {
      fprintf(stderr, "at %zu: fused %g, unfused %g\n", i, (double)a[i], (double)b[i]);
      return false;
    }
  }
  return true;
}

static void check_case(const cfg *c, ptera_threadpool *pool) {
  int rows = c->b * c->m;
  size_t nx = (size_t)rows * c->k, ny = (size_t)rows * c->n, nw = (size_t)c->n * c->k;
  float *w = rand_floats(nw, -1, 1), *bias = rand_floats((size_t)c->n, -1, 1);
  float *x = rand_floats(nx, -2, 2);
  if (c->edge)
    for (size_t i = 0; i < nx; i += 5) {
      static const float edges[4] = {NAN, INFINITY, -INFINITY, -0.0f};
      x[i] = edges[(i / 5) % 4];
    }
  int32_t xs[2] = {rows, c->k}, ws[2] = {c->n, c->k}, bs[1] = {c->n}, ys[2] = {rows, c->n};
  int32_t vs[3] = {c->b, c->m, c->n};
  size_t o1 = eu_up64(nx * 4), oy = o1 + eu_up64(ny * 4), oz = oy + eu_up64(ny * 4);
  int64_t bufsize = (int64_t)(oz + eu_up64(ny * 4));
  pc_value v[V_NVALUES];
  memset(v, 0, sizeof v);
  v[V_X] = eu_planned_f(2, xs, 0);
  v[V_W] = eu_tensor_f(PC_STORAGE_CONST, 2, ws);
  v[V_W].u.tensor.data = w;
  v[V_W].u.tensor.nbytes = nw * 4;
  if (c->bias) {
    v[V_B] = eu_tensor_f(PC_STORAGE_CONST, 1, bs);
    v[V_B].u.tensor.data = bias;
    v[V_B].u.tensor.nbytes = (size_t)c->n * 4;
  } else {
    v[V_B].kind = PC_VAL_NULL;
  }
  v[V_T1] = eu_planned_f(2, ys, o1);
  v[V_I0] = eu_int(c->b);
  v[V_I1] = eu_int(c->m);
  v[V_I2] = eu_int(c->n);
  int32_t sizes[3] = {V_I0, V_I1, V_I2};
  v[V_SIZES].kind = PC_VAL_INT_LIST;
  v[V_SIZES].u.list.items = sizes;
  v[V_SIZES].u.list.len = 3;
  v[V_V] = eu_tensor_f(PC_STORAGE_NONE, 3, vs);
  v[V_LO].kind = v[V_HI].kind = PC_VAL_DOUBLE;
  v[V_LO].u.d = c->act == ACT_CLAMP ? -0.25 : -1.0;
  v[V_HI].u.d = 1.0;
  if (c->act == ACT_CLAMP) v[V_HI].kind = PC_VAL_NULL;
  /* x dies at the linear, so y may take its memory (when it fits). */
  uint64_t yoff = c->reuse && nx >= ny ? 0 : oy;
  v[V_Y] = c->view ? eu_planned_f(3, vs, yoff) : eu_planned_f(2, ys, yoff);
  v[V_ONE] = eu_int(1);
  v[V_Z] = eu_planned_f(2, ys, oz);
  int32_t a0[5] = {V_X, V_W, V_B, V_T1, V_T1}, a1[3] = {V_T1, V_SIZES, V_V};
  int32_t a2[5], a3[5] = {V_Y, V_T1, V_ONE, V_Z, V_Z};
  int32_t cur = c->view ? V_V : V_T1;
  pc_instr instrs[4];
  uint32_t ni = 0;
  instrs[ni++] = (pc_instr){0, a0, 5, false};
  if (c->view) instrs[ni++] = (pc_instr){1, a1, 3, false};
  if (c->act == ACT_RELU) {
    a2[0] = cur, a2[1] = a2[2] = V_Y;
    instrs[ni++] = (pc_instr){2, a2, 3, false};
  } else {
    a2[0] = cur, a2[1] = V_LO, a2[2] = V_HI, a2[3] = a2[4] = V_Y;
    instrs[ni++] = (pc_instr){c->act == ACT_HARDTANH ? 3u : 4u, a2, 5, false};
  }
  if (c->t1_read) {
    if (c->view) a3[0] = V_T1; /* shapes must match for add: t1 + t1 */
    instrs[ni++] = (pc_instr){5, a3, 5, false};
  }
  int32_t in0[1] = {V_X}, outs[2] = {V_Y, V_Z};
  uint32_t nouts = c->t1_read ? 2 : 1;
  pc_method method = {"forward", v, V_NVALUES, in0, 1, outs, nouts, instrs, ni, ops, 6, &bufsize, 1, NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  float *ra[2] = {0}, *rb[2] = {0};
  size_t na[2] = {0}, nb[2] = {0};
  seen sa, sb;
  if (p && run(p, 0, pool, x, xs, nx, ra, na, nouts, &sa) &&
      run(p, PTERA_METHOD_NO_FUSION, pool, x, xs, nx, rb, nb, nouts, &sb)) {
    static const char *names[] = {"fused:linear+relu", "fused:linear+hardtanh", "fused:linear+clamp"};
    CHECK(sb.fused == 0);
    CHECK(sa.fused == (c->t1_read ? 0 : 1));
    if (!c->t1_read) CHECK(strcmp(sa.name, names[c->act]) == 0);
    for (uint32_t i = 0; i < nouts; i++) {
      CHECK(na[i] == nb[i] && na[i] == ny);
      if (na[i] == nb[i]) CHECK(same(ra[i], rb[i], na[i]));
    }
  }
  for (int i = 0; i < 2; i++) {
    free(ra[i]);
    free(rb[i]);
  }
  ptera_program_destroy(p);
  pt_free(NULL, file);
  free(w);
  free(bias);
  free(x);
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    for (int i = 0; i < 16; i++) {
      cfg c = {eu_irand(&rng, 1, 3),          eu_irand(&rng, 1, 9),      eu_irand(&rng, 1, 70),
               eu_irand(&rng, 1, 40),         eu_irand(&rng, 0, 1) != 0, eu_irand(&rng, 0, 1) != 0,
               eu_irand(&rng, 0, 1) != 0,     eu_irand(&rng, 0, 3) == 0, false,
               (enum act)eu_irand(&rng, 0, 2)};
      check_case(&c, i % 2 ? pool : NULL);
    }
  }
  pk_isa_force(PK_ISA_COUNT);
  /* y in x's memory: the product is staged in the scratch. */
  check_case(&(cfg){2, 4, 32, 16, true, true, true, true, false, ACT_RELU}, NULL);
  /* Not fused: t1 is read again after the group. */
  check_case(&(cfg){1, 5, 8, 6, true, false, false, false, true, ACT_HARDTANH}, NULL);
  check_case(&(cfg){2, 3, 8, 6, false, true, false, false, true, ACT_RELU}, pool);
  ptera_threadpool_destroy(pool);
  return check_summary("fuse_linear_act");
}

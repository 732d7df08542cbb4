/* Load-time fusion of add -> relu | hardtanh | clamp on hand-built
 * programs, each run fused and with PTERA_METHOD_NO_FUSION (the portable
 * kernels one by one): random shapes and alphas, NaN / +-inf / -0.0
 * inputs, the output in an input's memory (in place, or at another offset:
 * staged); the hook tells whether the group fused. Not fused: the sum read
 * again later, a broadcast. Tensors past the split size also run on a
 * 2-thread pool (the elements cut over the threads; 3-D ones by rows of
 * every plane, with rows that do not divide evenly). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit_util.h"
#include "ptera/threadpool.h"

static uint32_t rng = 991u;

enum act { ACT_RELU, ACT_HARDTANH, ACT_CLAMP };
enum place { OUT_APART, OUT_IN_PLACE, OUT_SKEWED };

typedef struct cfg {
  int rows, cols;
  double alpha;
  bool alpha_int, edge, t1_read, broadcast;
  enum place place;
  enum act act;
  int planes; /* > 0: [planes, rows, cols] (no broadcast) */
} cfg;

enum { V_A, V_B, V_ALPHA, V_T1, V_LO, V_HI, V_Y, V_ONE, V_Z, V_NVALUES };

static const pc_operator ops[] = {{"aten::add", "out"},
                                  {"aten::relu", "out"},
                                  {"aten::hardtanh", "out"},
                                  {"aten::clamp", "out"}};

static int fused_events;
static void hook(void *user, const ptera_instr_event *ev) {
  (void)user;
  if (!ev->end && strncmp(ev->name, "fused:add+", 10) == 0) fused_events++;
}

static ptera_threadpool *pool; /* NULL: the calling thread */

static float *run(ptera_program *p, uint32_t flags, const float *a, const float *b, size_t dims,
                  const int32_t *as, const int32_t *bs, size_t na, size_t nb, size_t nout) {
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  float *out = NULL;
  bool ok = ptera_method_create(p, "forward", &mo, &m) == PTERA_OK;
  if (ok) {
    ptera_method_set_instr_hook(m, hook, NULL);
    ok = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, dims, as, a, na * 4) == PTERA_OK &&
         ptera_method_set_input_tensor(m, 1, PTERA_DTYPE_FLOAT, dims, bs, b, nb * 4) == PTERA_OK &&
         ptera_method_execute(m) == PTERA_OK;
  }
  CHECK(ok);
  if (!ok) fprintf(stderr, "%s\n", ptera_method_errmsg(m));
  if (ok) {
    const ptera_tensor *t = ptera_method_output(m, 0)->u.tensor;
    CHECK(t->numel == nout);
    out = malloc(nout * 4 + 1);
    memcpy(out, t->data, nout * 4);
  }
  ptera_method_destroy(m);
  return out;
}

static bool same(const float *a, const float *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (isnan(a[i]) || isnan(b[i])) {
      if (isnan(a[i]) != isnan(b[i])) return false;
    } else if (a[i] != b[i] && fabsf(a[i] - b[i]) > 1e-5f + 1e-5f * fabsf(b[i])) {
      fprintf(stderr, "at %zu: fused %g, unfused %g\n", i, (double)a[i], (double)b[i]);
      return false;
    }
  }
  return true;
}

static void check_case(const cfg *c) {
  size_t dims = c->planes ? 3 : 2, n = (size_t)c->rows * c->cols * (c->planes ? (size_t)c->planes : 1);
  size_t nb = c->broadcast ? (size_t)c->cols : n;
  int32_t as[3] = {c->rows, c->cols}, bs[3] = {c->broadcast ? 1 : c->rows, c->cols};
  if (c->planes) {
    as[0] = bs[0] = c->planes, as[1] = bs[1] = c->rows, as[2] = bs[2] = c->cols;
  }
  float *a = malloc(n * 4 + 1), *b = malloc(nb * 4 + 1);
  for (size_t i = 0; i < n; i++) a[i] = eu_frand(&rng, -2, 2);
  for (size_t i = 0; i < nb; i++) b[i] = eu_frand(&rng, -2, 2);
  if (c->edge) {
    static const float edges[5] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f};
    for (size_t i = 0; i < n; i += 3) a[i] = edges[(i / 3) % 5];
    for (size_t i = 1; i < nb; i += 4) b[i] = edges[(i / 4) % 5];
  }
  size_t ob = eu_up64(n * 4), o1 = ob + eu_up64(nb * 4), oy = o1 + eu_up64(n * 4), oz = oy + eu_up64(n * 4);
  int64_t bufsize = (int64_t)(oz + eu_up64(n * 4));
  pc_value v[V_NVALUES];
  memset(v, 0, sizeof v);
  v[V_A] = eu_planned_f((int)dims, as, 0);
  v[V_B] = eu_planned_f((int)dims, bs, ob);
  if (c->alpha_int) {
    v[V_ALPHA] = eu_int((int64_t)c->alpha);
  } else {
    v[V_ALPHA].kind = PC_VAL_DOUBLE;
    v[V_ALPHA].u.d = c->alpha;
  }
  v[V_T1] = eu_planned_f((int)dims, as, o1);
  v[V_LO].kind = v[V_HI].kind = PC_VAL_DOUBLE;
  v[V_LO].u.d = c->act == ACT_CLAMP ? -0.5 : -1.0;
  v[V_HI].u.d = 1.0;
  if (c->act == ACT_CLAMP) v[V_LO].kind = PC_VAL_NULL;
  /* a dies at the add: y may take its memory, whole or from its second element. */
  uint64_t yoff = c->place == OUT_APART ? oy : c->place == OUT_IN_PLACE ? 0 : 4;
  v[V_Y] = eu_planned_f((int)dims, as, yoff);
  v[V_ONE] = eu_int(1);
  v[V_Z] = eu_planned_f((int)dims, as, oz);
  int32_t a0[5] = {V_A, V_B, V_ALPHA, V_T1, V_T1}, a1[5], a2[5] = {V_Y, V_T1, V_ONE, V_Z, V_Z};
  pc_instr instrs[3];
  uint32_t ni = 0;
  instrs[ni++] = (pc_instr){0, a0, 5, false};
  if (c->act == ACT_RELU) {
    a1[0] = V_T1, a1[1] = a1[2] = V_Y;
    instrs[ni++] = (pc_instr){1, a1, 3, false};
  } else {
    a1[0] = V_T1, a1[1] = V_LO, a1[2] = V_HI, a1[3] = a1[4] = V_Y;
    instrs[ni++] = (pc_instr){c->act == ACT_HARDTANH ? 2u : 3u, a1, 5, false};
  }
  if (c->t1_read) instrs[ni++] = (pc_instr){0, a2, 5, false};
  int32_t ins[2] = {V_A, V_B}, outs[1] = {c->t1_read ? V_Z : V_Y};
  pc_method method = {"forward", v, V_NVALUES, ins, 2, outs, 1, instrs, ni, ops, 4, &bufsize, 1,
                      NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  fused_events = 0;
  float *fa = p ? run(p, 0, a, b, dims, as, bs, n, nb, n) : NULL;
  int fused = fused_events;
  float *fb = p ? run(p, PTERA_METHOD_NO_FUSION, a, b, dims, as, bs, n, nb, n) : NULL;
  CHECK(fused_events == fused);
  CHECK(fused == (c->t1_read || c->broadcast ? 0 : 1));
  CHECK(fa && fb && same(fa, fb, n));
  free(fa);
  free(fb);
  ptera_program_destroy(p);
  pt_free(NULL, file);
  free(a);
  free(b);
}

int main(void) {
  for (int i = 0; i < 40; i++) {
    cfg c = {eu_irand(&rng, 1, 9),
             eu_irand(&rng, 1, 70),
             eu_irand(&rng, 0, 2) ? 1.0 : (double)eu_irand(&rng, -2, 3),
             eu_irand(&rng, 0, 1) != 0,
             eu_irand(&rng, 0, 2) == 0,
             false,
             false,
             (enum place)eu_irand(&rng, 0, 2),
             (enum act)eu_irand(&rng, 0, 2),
             0};
    if (!c.alpha_int && c.alpha != 1.0) c.alpha = eu_frand(&rng, -2, 2);
    check_case(&c);
  }
  check_case(&(cfg){4, 33, 1.0, true, true, false, false, OUT_SKEWED, ACT_RELU, 0});
  check_case(&(cfg){4, 33, 1.0, true, false, true, false, OUT_APART, ACT_RELU, 0});
  check_case(&(cfg){4, 33, 2.0, true, false, false, true, OUT_APART, ACT_HARDTANH, 0});
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  for (int i = 0; i < 6; i++) /* 77,100 elements: three tasks of the split */
    check_case(&(cfg){300, 257, i < 3 ? 1.0 : -0.5, i < 3, i % 2 == 0, false, false, (enum place)(i % 3),
                      (enum act)(i % 3), 0});
  for (int i = 0; i < 6; i++) /* 3-D, 8 row parts: 21 rows of 37 in 97 planes, 75,369 elements */
    check_case(&(cfg){21, 37, i < 3 ? 1.0 : 3.0, true, i % 2 == 1, false, false, (enum place)(i % 3),
                      (enum act)((i + 1) % 3), 97});
  ptera_threadpool_destroy(pool);
  pool = NULL;
  return check_summary("fuse_add_act");
}

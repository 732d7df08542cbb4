/* Load-time fusion of layout copies -> bmm (fuse_bmm.c, kernels/fused/
 * bmm_strided.c) on hand-built attention-shaped programs,
 *
 *      x [S, H, D] -> transpose_copy(0, 1) -> [H, S, D]
 *                  [-> transpose_copy(-1, 1) -> [H, D, S]]   (scores: K^T)
 *                  [-> expand_copy to the same shape] [-> et_view]
 *      out = bmm(a [H, M, k], that)
 *
 * run fused and with PTERA_METHOD_NO_FUSION, with and without a pool, every
 * available ISA forced in turn, against the product summed here in double:
 * random shapes (M from 1, the direct rows, past 8, the GEMM), NaN / +-inf /
 * -0.0 in both operands, out in x's memory (x dies at the first copy: the
 * fused kernel stages). The first copy read again after the bmm: only the
 * copies after it fuse (none: nothing fuses). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/isa.h"
#include "emit_util.h"
#include "ptera/threadpool.h"

static uint32_t rng = 2027u;

static int fused_events;
static void hook(void *user, const ptera_instr_event *ev) {
  (void)user;
  if (!ev->end && strcmp(ev->name, "fused:layout+bmm") == 0) fused_events++;
}

typedef struct cfg {
  int S, H, D, M;
  bool scores, expand, view, out_over_x, copy_read, edge;
} cfg;

enum { X, A, T1, D0, D1, T2, D2, D3, SZ, FALSE_, T3, T4, OUT, Y2, ONE, I0, I1, I2, NV };

static const pc_operator ops[] = {{"aten::transpose_copy", "int_out"},
                                  {"aten::expand_copy", "out"},
                                  {"executorch_prim::et_view", "default"},
                                  {"aten::bmm", "out"},
                                  {"aten::add", "out"}};

static bool run(ptera_program *p, uint32_t flags, ptera_threadpool *pool, const float *x,
                const int32_t *xs, size_t nx, const float *a, const int32_t *as, size_t na,
                float *out, size_t nout) {
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  bool ok = ptera_method_create(p, "forward", &mo, &m) == PTERA_OK;
  if (ok) {
    ptera_method_set_instr_hook(m, hook, NULL);
    ok = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 3, xs, x, nx * 4) == PTERA_OK &&
         ptera_method_set_input_tensor(m, 1, PTERA_DTYPE_FLOAT, 3, as, a, na * 4) == PTERA_OK &&
         ptera_method_execute(m) == PTERA_OK;
  }
  if (!ok) fprintf(stderr, "%s\n", m ? ptera_method_errmsg(m) : "no method");
  if (ok) {
    const ptera_tensor *t = ptera_method_output(m, 0)->u.tensor;
    ok = t->numel == nout;
    if (ok) memcpy(out, t->data, nout * 4);
  }
  ptera_method_destroy(m);
  return ok;
}

static bool close_to(float got, double want) {
  if (isnan(want)) return isnan(got);
  if (isinf(want)) return got == (float)want;
  return fabs((double)got - want) <= 1e-4 + 1e-4 * fabs(want);
}

static void check_case(const cfg *c, ptera_threadpool *pool) {
  int S = c->S, H = c->H, D = c->D, M = c->M;
  /* B = [H, D, S] (scores: x^T per head) or [H, S, D] (values). */
  int K = c->scores ? D : S, N = c->scores ? S : D;
  int32_t xs[3] = {S, H, D}, t1s[3] = {H, S, D}, bs[3] = {H, K, N}, as[3] = {H, M, K},
          os[3] = {H, M, N};
  size_t nx = (size_t)S * H * D, na = (size_t)H * M * K, no = (size_t)H * M * N;
  pc_value v[NV];
  memset(v, 0, sizeof v);
  for (int i = 0; i < NV; i++) v[i].kind = PC_VAL_NULL;
  size_t oa = eu_up64(nx * 4), o1 = oa + eu_up64(na * 4), o2 = o1 + eu_up64(nx * 4),
         o3 = o2 + eu_up64(nx * 4), oo = o3 + eu_up64(nx * 4), oy = oo + eu_up64(no * 4);
  int64_t bufsize = (int64_t)(oy + eu_up64(nx * 4) + eu_up64(no * 4));
  v[X] = eu_planned_f(3, xs, 0);
  v[A] = eu_planned_f(3, as, oa);
  v[T1] = eu_planned_f(3, t1s, o1);
  v[D0] = eu_int(0);
  v[D1] = eu_int(1);
  v[T2] = eu_planned_f(3, bs, o2);
  v[D2] = eu_int(-1);
  v[D3] = eu_int(1);
  v[I0] = eu_int(H), v[I1] = eu_int(K), v[I2] = eu_int(N);
  int32_t sz_items[3] = {I0, I1, I2};
  v[SZ].kind = PC_VAL_INT_LIST;
  v[SZ].u.list.items = sz_items;
  v[SZ].u.list.len = 3;
  v[FALSE_].kind = PC_VAL_BOOL;
  v[T3] = eu_planned_f(3, bs, o3);
  v[T4] = eu_tensor_f(PC_STORAGE_NONE, 3, bs); /* et_view's out: unplanned */
  /* out may take x's memory: x dies at the first copy. */
  v[OUT] = eu_planned_f(3, os, c->out_over_x && no <= nx ? 0 : oo);
  v[Y2] = eu_planned_f(3, t1s, oy);
  v[ONE] = eu_int(1);
  int32_t a0[5] = {X, D0, D1, T1, T1}, a1[5] = {T1, D2, D3, T2, T2};
  int32_t cur = T1;
  pc_instr instrs[6];
  uint32_t ni = 0;
  instrs[ni++] = (pc_instr){0, a0, 5, false};
  if (c->scores) {
    instrs[ni++] = (pc_instr){0, a1, 5, false};
    cur = T2;
  }
  int32_t a2[5] = {cur, SZ, FALSE_, T3, T3};
  if (c->expand) {
    instrs[ni++] = (pc_instr){1, a2, 5, false};
    cur = T3;
  }
  int32_t a3[3] = {cur, SZ, T4};
  if (c->view) {
    instrs[ni++] = (pc_instr){2, a3, 3, false};
    cur = T4;
  }
  int32_t a4[4] = {A, cur, OUT, OUT}, a5[5] = {T1, T1, ONE, Y2, Y2};
  instrs[ni++] = (pc_instr){3, a4, 4, false};
  if (c->copy_read) instrs[ni++] = (pc_instr){4, a5, 5, false};
  int32_t ins[2] = {X, A}, outs[2] = {OUT, Y2};
  pc_method method = {"forward", v, NV, ins, 2, outs, c->copy_read ? 2u : 1u, instrs, ni,
                      ops, 5, &bufsize, 1, NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  CHECK(p != NULL);
  float *x = malloc(nx * 4 + 4), *a = malloc(na * 4 + 4), *fa = malloc(no * 4 + 4),
        *fb = malloc(no * 4 + 4);
  static const float edges[5] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f};
  for (size_t i = 0; i < nx; i++) x[i] = c->edge && i % 11 == 5 ? edges[(i / 11) % 5] : eu_frand(&rng, -1, 1);
  for (size_t i = 0; i < na; i++) a[i] = c->edge && i % 13 == 7 ? edges[(i / 13) % 5] : eu_frand(&rng, -1, 1);
  fused_events = 0;
  bool ok = p && run(p, 0, pool, x, xs, nx, a, as, na, fa, no);
  int fused = fused_events;
  ok = ok && run(p, PTERA_METHOD_NO_FUSION, pool, x, xs, nx, a, as, na, fb, no);
  CHECK(ok);
  CHECK(fused_events == fused);
  /* T1 read after: the copies after it may still fuse with the bmm. */
  int want_fused = !c->copy_read || c->scores || c->expand || c->view ? 1 : 0;
  CHECK(fused == want_fused);
  if (fused != want_fused)
    fprintf(stderr, "S%d H%d D%d M%d scores %d expand %d view %d over %d: fused %d\n", S, H, D, M,
            c->scores, c->expand, c->view, c->out_over_x, fused);
  bool good = ok;
  for (int h = 0; h < H && good; h++)
    for (int i = 0; i < M && good; i++)
      for (int j = 0; j < N && good; j++) {
        double want = 0;
        for (int k = 0; k < K; k++) {
          /* B[h, k, j] = x[s, h, d] with (s, d) = (j, k) for scores, (k, j) for values. */
          int s = c->scores ? j : k, d = c->scores ? k : j;
          want += (double)a[((size_t)h * M + i) * K + k] * (double)x[((size_t)s * H + h) * D + d];
        }
        size_t at = ((size_t)h * M + i) * N + j;
        good = close_to(fa[at], want) && close_to(fb[at], want);
        if (!good)
          fprintf(stderr, "S%d H%d D%d M%d scores %d at %zu: fused %g unfused %g want %g\n", S, H, D,
                  M, c->scores, at, (double)fa[at], (double)fb[at], want);
      }
  CHECK(good);
  free(x);
  free(a);
  free(fa);
  free(fb);
  ptera_program_destroy(p);
  pt_free(NULL, file);
}

static cfg random_cfg(void) {
  cfg c = {eu_irand(&rng, 1, 40),     eu_irand(&rng, 1, 5),      eu_irand(&rng, 1, 20),
           eu_irand(&rng, 1, 11),     eu_irand(&rng, 0, 1) != 0, eu_irand(&rng, 0, 1) != 0,
           eu_irand(&rng, 0, 1) != 0, eu_irand(&rng, 0, 3) == 0, eu_irand(&rng, 0, 5) == 0,
           eu_irand(&rng, 0, 2) == 0};
  return c;
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  static const cfg fixed[] = {
      {256, 6, 48, 1, true, true, true, false, false, false},  /* a decoder step's K^T */
      {256, 6, 48, 1, false, true, true, false, false, true},  /* and V */
      {17, 3, 9, 12, true, false, true, false, false, true},   /* the GEMM */
      {17, 3, 9, 2, true, false, true, true, false, true},     /* direct rows, staged */
      {17, 3, 4, 9, false, false, true, true, false, false},   /* the GEMM, staged */
      {5, 2, 4, 3, false, false, false, false, true, false},   /* the copy read after: not fused */
      {5, 2, 4, 3, true, true, false, false, true, false},     /* the copies after it fuse */
  };
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
      check_case(&fixed[i], NULL);
      check_case(&fixed[i], pool);
    }
    for (int i = 0; i < 14; i++) {
      cfg c = random_cfg();
      check_case(&c, i % 2 ? pool : NULL);
    }
  }
  pk_isa_force(PK_ISA_COUNT);
  ptera_threadpool_destroy(pool);
  return check_summary("fuse_bmm");
}

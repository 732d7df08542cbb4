/* Load-time fusion of div | mul by a Scalar -> [add mask] -> _softmax over
 * the last dim (fuse_softmax.c, kernels/fused/scale_softmax.c) on hand-built
 * attention-score programs,
 *
 *      x [H, M, N] -> div.Scalar_out | mul.Scalar_out (s) -> T1
 *                  [-> add.out (T1, mask) or (mask, T1), alpha 1 -> T2]
 *                  -> _softmax.out (dim -1 or 2) -> y
 *
 * each run fused and with PTERA_METHOD_NO_FUSION, with and without a pool,
 * every available ISA forced in turn: bit for bit the unfused run, and
 * within 1e-5 relative of the formula in double here. Random shapes (N from
 * 1 past the vector widths), masks of one row [1, 1, N] or of x's shape,
 * NaN / +-inf / -0.0 in x and the mask, a row masked to -inf everywhere
 * (NaN both ways), y in x's memory (in place, or skewed: staged) or over the
 * mask. Not fused: T1 read after the group, softmax over dim 1, alpha 2, a
 * mask [H, 1, N] broadcast over M > 1 (the fused prepare declines). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/isa.h"
#include "emit_util.h"
#include "ptera/threadpool.h"

static uint32_t rng = 4099u;

enum place { Y_APART, Y_IN_PLACE, Y_SKEWED, Y_OVER_MASK };
enum mask { NO_MASK, MASK_ROW, MASK_FULL, MASK_HEADS };

typedef struct cfg {
  int H, M, N;
  bool mul, mask_first, t1_read, dim1, alpha2, edge, dead_row;
  enum mask mask;
  enum place place;
} cfg;

enum { X, MASK, S, T1, ALPHA, T2, DIM, FALSE_, Y, Z, ONE, NV };

static const pc_operator ops[] = {{"aten::div", "Scalar_out"},
                                  {"aten::mul", "Scalar_out"},
                                  {"aten::add", "out"},
                                  {"aten::_softmax", "out"}};

static int fused_events;
static void hook(void *user, const ptera_instr_event *ev) {
  (void)user;
  if (!ev->end && strncmp(ev->name, "fused:scale+", 12) == 0) fused_events++;
}

static float *run(ptera_program *p, uint32_t flags, ptera_threadpool *pool, const float *x,
                  const int32_t *xs, size_t nx, const float *mask, const int32_t *ms, size_t nm) {
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  float *out = NULL;
  bool ok = ptera_method_create(p, "forward", &mo, &m) == PTERA_OK;
  if (ok) {
    ptera_method_set_instr_hook(m, hook, NULL);
    ok = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 3, xs, x, nx * 4) == PTERA_OK &&
         (!mask || ptera_method_set_input_tensor(m, 1, PTERA_DTYPE_FLOAT, 3, ms, mask, nm * 4) ==
                       PTERA_OK) &&
         ptera_method_execute(m) == PTERA_OK;
  }
  CHECK(ok);
  if (!ok) fprintf(stderr, "%s\n", m ? ptera_method_errmsg(m) : "no method");
  if (ok) {
    const ptera_tensor *t = ptera_method_output(m, 0)->u.tensor;
    CHECK(t->numel == nx);
    out = malloc(nx * 4 + 1);
    memcpy(out, t->data, nx * 4);
  }
  ptera_method_destroy(m);
  return out;
}

/* softmax over the last dim of x / s + mask (or x * s), in double from the
 * float scaled values the kernels compute (the scalar rounded to float). */
static void reference(const cfg *c, const float *x, const float *mask, float s, double *want) {
  size_t N = (size_t)c->N, rows = (size_t)c->H * c->M;
  double *t = malloc(N * sizeof *t);
  for (size_t r = 0; r < rows; r++) {
    double mx = -INFINITY;
    bool nan = false;
    for (size_t i = 0; i < N; i++) {
      float v = c->mul ? x[r * N + i] * s : x[r * N + i] / s;
      if (mask) {
        size_t mi = c->mask == MASK_FULL ? r * N + i : c->mask == MASK_HEADS ? (r / c->M) * N + i : i;
        v = v + mask[mi];
      }
      t[i] = v;
      if (isnan(v) || v == INFINITY) nan = true;
      if (v > mx) mx = v;
    }
    double sum = 0.0;
    for (size_t i = 0; i < N; i++) sum += exp(t[i] - mx);
    for (size_t i = 0; i < N; i++)
      want[r * N + i] = nan || mx == -INFINITY ? NAN : exp(t[i] - mx) / sum;
  }
  free(t);
}

static bool close_to(const float *got, const double *want, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (isnan(want[i]) ? !isnan(got[i]) : fabs(got[i] - want[i]) > 1e-5 * want[i] + 1e-12) {
      fprintf(stderr, "at %zu: got %g, want %g\n", i, (double)got[i], want[i]);
      return false;
    }
  }
  return true;
}

static void check_case(const cfg *c, ptera_threadpool *pool) {
  size_t n = (size_t)c->H * c->M * c->N;
  int32_t xs[3] = {c->H, c->M, c->N};
  int32_t ms[3] = {c->mask == MASK_FULL || c->mask == MASK_HEADS ? c->H : 1,
                   c->mask == MASK_FULL ? c->M : 1, c->N};
  size_t nm = (size_t)ms[0] * ms[1] * ms[2];
  bool masked = c->mask != NO_MASK;
  float *x = malloc(n * 4 + 1), *mask = masked ? malloc(nm * 4 + 1) : NULL;
  for (size_t i = 0; i < n; i++) x[i] = eu_frand(&rng, -6, 6);
  for (size_t i = 0; masked && i < nm; i++) mask[i] = eu_irand(&rng, 0, 3) ? eu_frand(&rng, -2, 2) : -INFINITY;
  if (c->edge) {
    static const float edges[5] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f};
    for (size_t i = 2; i < n; i += 7) x[i] = edges[(i / 7) % 5];
    for (size_t i = 3; masked && i < nm; i += 11) mask[i] = edges[(i / 11) % 5];
  }
  if (c->dead_row && masked)
    for (int i = 0; i < c->N; i++) mask[i] = -INFINITY;
  float s = eu_irand(&rng, 0, 1) ? (float)sqrt((double)eu_irand(&rng, 1, 128)) : 8.0f;
  /* the mask's slot holds y too (Y_OVER_MASK) */
  size_t om = eu_up64(n * 4), o1 = om + eu_up64((nm > n ? nm : n) * 4), o2 = o1 + eu_up64(n * 4);
  size_t oy = o2 + eu_up64(n * 4), oz = oy + eu_up64(n * 4);
  int64_t bufsize = (int64_t)(oz + eu_up64(n * 4));
  pc_value v[NV];
  memset(v, 0, sizeof v);
  v[X] = eu_planned_f(3, xs, 0);
  v[MASK] = masked ? eu_planned_f(3, ms, om) : eu_tensor_f(PC_STORAGE_NONE, 3, ms);
  v[S].kind = PC_VAL_DOUBLE;
  v[S].u.d = (double)s;
  v[T1] = eu_planned_f(3, xs, o1);
  v[ALPHA] = eu_int(c->alpha2 ? 2 : 1);
  v[T2] = eu_planned_f(3, xs, o2);
  v[DIM] = eu_int(c->dim1 ? 1 : eu_irand(&rng, 0, 1) ? -1 : 2);
  v[FALSE_].kind = PC_VAL_BOOL;
  /* x dies at the scale: y may take its memory, whole or skewed by a float;
   * or the mask's (read by every row). */
  uint64_t yoff = c->place == Y_APART ? oy : c->place == Y_IN_PLACE ? 0 : c->place == Y_SKEWED ? 4 : om;
  if (c->place == Y_OVER_MASK && !masked) yoff = oy;
  v[Y] = eu_planned_f(3, xs, yoff);
  v[Z] = eu_planned_f(3, xs, oz);
  v[ONE] = eu_int(1);
  int32_t a0[4] = {X, S, T1, T1};
  int32_t a1[5] = {c->mask_first ? MASK : T1, c->mask_first ? T1 : MASK, ALPHA, T2, T2};
  int32_t a2[5] = {masked ? T2 : T1, DIM, FALSE_, Y, Y}, a3[5] = {Y, T1, ONE, Z, Z};
  pc_instr instrs[4];
  uint32_t ni = 0;
  instrs[ni++] = (pc_instr){c->mul ? 1u : 0u, a0, 4, false};
  if (masked) instrs[ni++] = (pc_instr){2, a1, 5, false};
  instrs[ni++] = (pc_instr){3, a2, 5, false};
  if (c->t1_read) instrs[ni++] = (pc_instr){2, a3, 5, false};
  int32_t ins[2] = {X, MASK}, outs[1] = {c->t1_read ? Z : Y};
  pc_method method = {"forward", v, NV, ins, masked ? 2u : 1u, outs, 1, instrs, ni, ops, 4,
                      &bufsize, 1, NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  fused_events = 0;
  float *fa = p ? run(p, 0, pool, x, xs, n, mask, ms, nm) : NULL;
  int fused = fused_events;
  float *fb = p ? run(p, PTERA_METHOD_NO_FUSION, pool, x, xs, n, mask, ms, nm) : NULL;
  CHECK(fused_events == fused);
  bool declines = c->t1_read || c->dim1 || c->alpha2 || (c->mask == MASK_HEADS && c->M > 1);
  CHECK(fused == (declines ? 0 : 1));
  CHECK(fa && fb);
  /* bit for bit, but for NaN payloads */
  if (fa && fb && memcmp(fa, fb, n * 4) != 0) {
    for (size_t i = 0; i < n; i++)
      if (!(isnan(fa[i]) && isnan(fb[i])) && memcmp(&fa[i], &fb[i], 4) != 0) {
        fprintf(stderr, "H %d M %d N %d at %zu: fused %a, unfused %a\n", c->H, c->M, c->N, i,
                (double)fa[i], (double)fb[i]);
        CHECK(false);
        break;
      }
  }
  if (fa && !c->t1_read && !c->alpha2 && !c->dim1) {
    double *want = malloc(n * sizeof *want);
    reference(c, x, mask, s, want);
    CHECK(close_to(fa, want, n));
    free(want);
  }
  free(fa);
  free(fb);
  ptera_program_destroy(p);
  pt_free(NULL, file);
  free(x);
  free(mask);
}

static cfg random_cfg(void) {
  cfg c;
  memset(&c, 0, sizeof c);
  c.H = eu_irand(&rng, 1, 4);
  c.M = eu_irand(&rng, 1, 5);
  c.N = eu_irand(&rng, 1, 70);
  c.mul = eu_irand(&rng, 0, 1) != 0;
  c.mask_first = eu_irand(&rng, 0, 1) != 0;
  c.edge = eu_irand(&rng, 0, 3) == 0;
  c.mask = (enum mask)eu_irand(&rng, 0, 2);
  c.place = (enum place)eu_irand(&rng, 0, 3);
  return c;
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  static const cfg fixed[] = {
      /* H  M    N  mul  mfirst t1rd  dim1  alpha2 edge  dead */
      {6, 1, 256, false, false, false, false, false, false, false, MASK_ROW, Y_APART},  /* a decoder step */
      {4, 33, 40, false, true, false, false, false, true, true, MASK_ROW, Y_IN_PLACE},  /* a dead row */
      {3, 5, 17, true, false, false, false, false, true, false, MASK_FULL, Y_SKEWED},
      {3, 5, 17, false, false, false, false, false, false, false, MASK_ROW, Y_OVER_MASK},
      {2, 3, 64, true, false, false, false, false, false, false, NO_MASK, Y_APART},
      {2, 1, 9, false, false, false, false, false, false, false, MASK_HEADS, Y_APART}, /* M 1: one row */
      {2, 3, 9, false, false, false, false, false, false, false, MASK_HEADS, Y_APART}, /* declines */
      {2, 3, 9, false, false, true, false, false, false, false, MASK_ROW, Y_APART},    /* T1 read */
      {2, 3, 9, false, false, false, true, false, false, false, MASK_ROW, Y_APART},    /* dim 1 */
      {2, 3, 9, false, false, false, false, true, false, false, MASK_ROW, Y_APART},    /* alpha 2 */
  };
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
      check_case(&fixed[i], NULL);
      check_case(&fixed[i], pool);
    }
    for (int i = 0; i < 16; i++) {
      cfg c = random_cfg();
      check_case(&c, i % 2 ? pool : NULL);
    }
  }
  pk_isa_force(PK_ISA_COUNT);
  ptera_threadpool_destroy(pool);
  return check_summary("fuse_softmax");
}

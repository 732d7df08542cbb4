/* Load-time fusion of the exported RMSNorm chain (fuse_rms_norm.c,
 * kernels/fused/rms_norm.c) on hand-built programs,
 *
 *      T90 = pow(x, 2)  T95 = mean(T90, [-1 | dim-1], keepdim)  T98 = T95 + eps
 *      T99 = rsqrt(T98)  T100 = x * T99  [T101 = T100 * w]
 *
 * run fused and with PTERA_METHOD_NO_FUSION, with and without a pool, every
 * available ISA forced in turn, both against the formula computed here in
 * double, and fused bit for bit as unfused (the same vector loops):
 * random shapes ([R, D] and [B, S, D], D from 1 past the vector widths),
 * with and without the weight (a constant or an input), the muls' operands
 * in either order, exponent Int 2 or Double 2.0, eps Double or Int 0, NaN /
 * +-inf / -0.0, rows of small values (eps matters) and all-zero rows
 * (eps 0: 0 * inf), out in x's memory or (one row) in w's (staged), rows
 * enough to split over the pool. Not fused, still computed:
 * T99 or T100 read after the group, the mean over dim 0, keepdim false,
 * Double tensors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/isa.h"
#include "emit_util.h"
#include "ptera/threadpool.h"

static uint32_t rng = 4099u;

static int fused_events;
static void hook(void *user, const ptera_instr_event *ev) {
  (void)user;
  if (!ev->end && strcmp(ev->name, "fused:rms_norm") == 0) fused_events++;
}

enum wkind { W_NONE, W_CONST, W_INPUT };
enum place { OUT_APART, OUT_OVER_X, OUT_OVER_W };
enum after { AFTER_NONE, AFTER_T99, AFTER_T100 };

typedef struct cfg {
  int B, R, D; /* x is [B, R, D], or [R, D] when B == 0 */
  enum wkind w;
  bool swap, exp_double, dim_explicit, edge;
  int eps;     /* 0: Double 1e-5, 1: Double 1e-6, 2: Int 0 */
  enum place place;
  enum after after;
  bool mean_dim0, no_keepdim, f64;
} cfg;

enum { X, W, EXP, T90, DIMS, DIMV, KEEP, NONE_, T95, EPS, ALPHA, T98, T99, T100, T101, Z, NV };

static const pc_operator ops[] = {{"aten::pow", "Tensor_Scalar_out"}, {"aten::mean", "out"},
                                  {"aten::add", "Scalar_out"},        {"aten::rsqrt", "out"},
                                  {"aten::mul", "out"},               {"aten::add", "out"}};

typedef struct input {
  int dtype, dim;
  const int32_t *sizes;
  const void *data;
  size_t bytes;
} input;

/* Runs forward; copies outputs 0 and 1 (when there) as doubles. */
static bool run(ptera_program *p, uint32_t flags, ptera_threadpool *pool, const input *ins,
                size_t nin, double *out0, size_t n0, double *out1, size_t n1) {
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  bool ok = ptera_method_create(p, "forward", &mo, &m) == PTERA_OK;
  if (ok) ptera_method_set_instr_hook(m, hook, NULL);
  for (size_t i = 0; ok && i < nin; i++)
    ok = ptera_method_set_input_tensor(m, i, (ptera_dtype)ins[i].dtype, (uint8_t)ins[i].dim,
                                       ins[i].sizes, ins[i].data, ins[i].bytes) == PTERA_OK;
  ok = ok && ptera_method_execute(m) == PTERA_OK;
  if (!ok) fprintf(stderr, "%s\n", m ? ptera_method_errmsg(m) : "no method");
  double *outs[2] = {out0, out1};
  size_t ns[2] = {n0, n1};
  for (size_t k = 0; ok && k < 2; k++) {
    if (!outs[k]) continue;
    const ptera_tensor *t = ptera_method_output(m, k)->u.tensor;
    ok = t->numel == ns[k];
    for (size_t i = 0; ok && i < ns[k]; i++)
      outs[k][i] = t->dtype == PTERA_DTYPE_DOUBLE ? ((const double *)t->data)[i]
                                                  : (double)((const float *)t->data)[i];
  }
  ptera_method_destroy(m);
  return ok;
}

static bool close_to(double got, double want, bool f64) {
  if (isnan(want)) return isnan(got);
  if (isinf(want) || want == 0) return got == want && signbit(got) == signbit(want);
  double rtol = f64 ? 1e-12 : 1e-5, atol = f64 ? 1e-14 : 1e-6;
  return fabs(got - want) <= atol + rtol * fabs(want);
}

static pc_value planned(const cfg *c, int dim, const int32_t *sizes, uint64_t off) {
  pc_value v = eu_planned_f(dim, sizes, off);
  if (c->f64) v.u.tensor.scalar_type = PTERA_DTYPE_DOUBLE;
  return v;
}

static void check_case(const cfg *c, ptera_threadpool *pool) {
  int dim = c->B ? 3 : 2, D = c->D;
  int32_t xs[3], rs[3], ws[1] = {D};
  if (c->B) {
    xs[0] = c->B, xs[1] = c->R, xs[2] = D;
  } else {
    xs[0] = c->R, xs[1] = D;
  }
  memcpy(rs, xs, sizeof rs);
  size_t rows = (size_t)c->R * (size_t)(c->B ? c->B : 1), n = rows * (size_t)D;
  /* The reduced shape: [.., 1]; over dim 0 [1, D]; keepdim false [R] (R == 1). */
  int rdim = dim;
  if (c->mean_dim0) rs[0] = 1;
  else if (c->no_keepdim) rdim = dim - 1;
  else rs[dim - 1] = 1;
  size_t nr = 1;
  for (int d = 0; d < rdim; d++) nr *= (size_t)rs[d];
  size_t es = c->f64 ? 8 : 4, region = eu_up64(n * es);
  /* x, w, T90, T95, T98, T99, T100, T101, Z: one region each. */
  uint64_t off[9];
  for (int i = 0; i < 9; i++) off[i] = (uint64_t)i * region;
  int64_t bufsize = (int64_t)(9 * region);
  bool weighted = c->w != W_NONE;
  pc_value v[NV];
  memset(v, 0, sizeof v);
  for (int i = 0; i < NV; i++) v[i].kind = PC_VAL_NULL;
  v[X] = planned(c, dim, xs, off[0]);
  float *wf = malloc((size_t)D * 4 + 4);
  double *wd = malloc((size_t)D * 8 + 8);
  for (int i = 0; i < D; i++) {
    wf[i] = eu_frand(&rng, -2, 2);
    if (c->edge && i % 7 == 3) wf[i] = i % 2 ? -0.0f : 0.0f;
    wd[i] = wf[i];
  }
  if (c->w == W_CONST) {
    v[W] = eu_tensor_f(PC_STORAGE_CONST, 1, ws);
    if (c->f64) v[W].u.tensor.scalar_type = PTERA_DTYPE_DOUBLE;
    v[W].u.tensor.data = c->f64 ? (const void *)wd : (const void *)wf;
    v[W].u.tensor.nbytes = (size_t)D * es;
  } else {
    v[W] = planned(c, 1, ws, off[1]);
  }
  if (c->exp_double) {
    v[EXP].kind = PC_VAL_DOUBLE;
    v[EXP].u.d = 2.0;
  } else {
    v[EXP] = eu_int(2);
  }
  v[T90] = planned(c, dim, xs, off[2]);
  int32_t dims_items[1] = {DIMV};
  v[DIMS].kind = PC_VAL_INT_LIST;
  v[DIMS].u.list.items = dims_items;
  v[DIMS].u.list.len = 1;
  v[DIMV] = eu_int(c->mean_dim0 ? 0 : c->dim_explicit ? dim - 1 : -1);
  v[KEEP].kind = PC_VAL_BOOL;
  v[KEEP].u.b = !c->no_keepdim;
  v[T95] = planned(c, rdim, rs, off[3]);
  double eps = c->eps == 0 ? 1e-5 : c->eps == 1 ? 1e-6 : 0.0;
  if (c->eps == 2) {
    v[EPS] = eu_int(0);
  } else {
    v[EPS].kind = PC_VAL_DOUBLE;
    v[EPS].u.d = eps;
  }
  v[ALPHA] = eu_int(1);
  v[T98] = planned(c, rdim, rs, off[4]);
  v[T99] = planned(c, rdim, rs, off[5]);
  /* The group's output in x's memory (x dies at its last read) or in w's. */
  int32_t out = weighted ? T101 : T100;
  uint64_t out_off = c->place == OUT_OVER_X ? off[0] : c->place == OUT_OVER_W ? off[1] : off[7];
  v[T100] = planned(c, dim, xs, out == T100 ? out_off : off[6]);
  v[T101] = planned(c, dim, xs, out_off);
  bool z_row = c->after == AFTER_T99;
  v[Z] = planned(c, z_row ? rdim : dim, z_row ? rs : xs, off[8]);
  int32_t a0[4] = {X, EXP, T90, T90}, a1[6] = {T90, DIMS, KEEP, NONE_, T95, T95},
          a2[5] = {T95, EPS, ALPHA, T98, T98}, a3[3] = {T98, T99, T99},
          a4[4] = {X, T99, T100, T100}, a5[4] = {T100, W, T101, T101}, a6[5];
  if (c->swap) {
    a4[0] = T99, a4[1] = X;
    a5[0] = W, a5[1] = T100;
  }
  pc_instr instrs[7];
  uint32_t ni = 0;
  instrs[ni++] = (pc_instr){0, a0, 4, false};
  instrs[ni++] = (pc_instr){1, a1, 6, false};
  instrs[ni++] = (pc_instr){2, a2, 5, false};
  instrs[ni++] = (pc_instr){3, a3, 3, false};
  instrs[ni++] = (pc_instr){4, a4, 4, false};
  if (weighted) instrs[ni++] = (pc_instr){4, a5, 4, false};
  if (c->after != AFTER_NONE) {
    int32_t t = c->after == AFTER_T99 ? T99 : T100;
    a6[0] = a6[1] = t, a6[2] = ALPHA, a6[3] = a6[4] = Z;
    instrs[ni++] = (pc_instr){5, a6, 5, false};
  }
  int32_t ins[2] = {X, W}, outs[2] = {out, Z};
  uint32_t nin = c->w == W_INPUT ? 2u : 1u, nout = c->after != AFTER_NONE ? 2u : 1u;
  pc_method method = {"forward", v, NV, ins, nin, outs, nout, instrs, ni, ops, 6, &bufsize, 1,
                      NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  CHECK(p != NULL);

  float *xf = malloc(n * 4 + 4);
  double *xd = malloc(n * 8 + 8);
  static const float edges[5] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f};
  /* Edge rows: the last all zero (-0.0 in its second half), the one before
   * (of three or more) small, where eps matters; NaN / +-inf / -0.0 in the others. */
  size_t plain = rows - (rows >= 3 ? 2 : 1);
  for (size_t i = 0; i < n; i++) {
    size_t row = i / (size_t)D, col = i % (size_t)D;
    xf[i] = eu_frand(&rng, -2, 2);
    if (!c->edge) continue;
    if (row == rows - 1) xf[i] = col * 2 < (size_t)D ? 0.0f : -0.0f;
    else if (row >= plain) xf[i] *= 0.003f;
    else if (i % 13 == 5) xf[i] = edges[(i / 13) % 5];
  }
  for (size_t i = 0; i < n; i++) xd[i] = xf[i];
  input in[2] = {{c->f64 ? PTERA_DTYPE_DOUBLE : PTERA_DTYPE_FLOAT, dim, xs,
                  c->f64 ? (const void *)xd : (const void *)xf, n * es},
                 {c->f64 ? PTERA_DTYPE_DOUBLE : PTERA_DTYPE_FLOAT, 1, ws,
                  c->f64 ? (const void *)wd : (const void *)wf, (size_t)D * es}};

  /* The formula in double: r per reduced element, y = (x * r) * w; eps as
   * the kernels read it (float for Float tensors). */
  double e = c->f64 ? eps : (double)(float)eps;
  double *r = malloc(nr * 8 + 8), *want = malloc(n * 8 + 8), *zwant = malloc(n * 8 + 8);
  size_t nz = z_row ? nr : n;
  for (size_t g = 0; g < nr; g++) {
    double s = 0;
    size_t cnt = c->mean_dim0 ? (size_t)c->R : (size_t)D;
    for (size_t i = 0; i < cnt; i++) {
      double xv = c->mean_dim0 ? xd[i * (size_t)D + g] : xd[g * (size_t)D + i];
      s += xv * xv;
    }
    r[g] = 1.0 / sqrt(s / (double)cnt + e);
  }
  for (size_t i = 0; i < n; i++) {
    double rv = r[c->mean_dim0 ? i % (size_t)D : i / (size_t)D];
    double t = xd[i] * rv;
    want[i] = weighted ? t * wd[i % (size_t)D] : t;
    if (c->after == AFTER_T100) zwant[i] = t + t;
  }
  if (z_row)
    for (size_t g = 0; g < nr; g++) zwant[g] = r[g] + r[g];

  bool expect = !c->mean_dim0 && !c->no_keepdim && !c->f64 && c->after != AFTER_T99 &&
                !(c->after == AFTER_T100 && weighted);
  double *fa = malloc(n * 8 + 8), *fb = malloc(n * 8 + 8), *za = malloc(n * 8 + 8),
         *zb = malloc(n * 8 + 8);
  bool two = nout == 2;
  fused_events = 0;
  bool ok = p && run(p, 0, pool, in, nin, fa, n, two ? za : NULL, nz);
  int fused = fused_events;
  ok = ok && run(p, PTERA_METHOD_NO_FUSION, pool, in, nin, fb, n, two ? zb : NULL, nz);
  CHECK(ok);
  CHECK(fused_events == fused);
  CHECK(fused == (expect ? 1 : 0));
  if (fused != (expect ? 1 : 0))
    fprintf(stderr, "B%d R%d D%d w%d after %d dim0 %d nokeep %d f64 %d: fused %d\n", c->B, c->R, D,
            c->w, c->after, c->mean_dim0, c->no_keepdim, c->f64, fused);
  bool good = ok;
  for (size_t i = 0; i < n && good; i++) {
    good = close_to(fa[i], want[i], c->f64) && close_to(fb[i], want[i], c->f64);
    if (!good)
      fprintf(stderr, "B%d R%d D%d w%d swap %d place %d at %zu: fused %.9g unfused %.9g want %.9g\n",
              c->B, c->R, D, c->w, c->swap, c->place, i, fa[i], fb[i], want[i]);
  }
  for (size_t i = 0; two && i < nz && good; i++) {
    good = close_to(za[i], zwant[i], c->f64) && close_to(zb[i], zwant[i], c->f64);
    if (!good)
      fprintf(stderr, "read after %d at %zu: fused %.9g unfused %.9g want %.9g\n", c->after, i,
              za[i], zb[i], zwant[i]);
  }
  CHECK(good);
  /* The fused rows round as the unfused fast paths on the same ISA (fused.h). */
  bool exact = ok;
  for (size_t i = 0; i < n && exact; i++)
    exact = isnan(fa[i]) ? isnan(fb[i]) : memcmp(&fa[i], &fb[i], sizeof fa[i]) == 0;
  CHECK(exact);
  free(fa);
  free(fb);
  free(za);
  free(zb);
  free(r);
  free(want);
  free(zwant);
  free(xf);
  free(xd);
  free(wf);
  free(wd);
  ptera_program_destroy(p);
  pt_free(NULL, file);
}

static cfg random_cfg(void) {
  cfg c;
  memset(&c, 0, sizeof c);
  c.B = eu_irand(&rng, 0, 2) == 0 ? eu_irand(&rng, 1, 3) : 0;
  c.R = eu_irand(&rng, 1, 7);
  c.D = eu_irand(&rng, 0, 3) == 0 ? eu_irand(&rng, 1, 9) : eu_irand(&rng, 1, 70);
  c.w = (enum wkind)eu_irand(&rng, 0, 2);
  c.swap = eu_irand(&rng, 0, 1) != 0;
  c.exp_double = eu_irand(&rng, 0, 1) != 0;
  c.dim_explicit = eu_irand(&rng, 0, 1) != 0;
  c.edge = eu_irand(&rng, 0, 2) == 0;
  c.eps = eu_irand(&rng, 0, 5) == 0 ? 2 : eu_irand(&rng, 0, 1);
  /* out over w is in place only for one row */
  c.place = (enum place)eu_irand(&rng, 0, c.w == W_INPUT && c.R == 1 && c.B < 2 ? 2 : 1);
  return c;
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  /* B R D w swap exp_double dim_explicit edge eps place after dim0 nokeep f64 */
  static const cfg fixed[] = {
      {0, 1, 288, W_CONST, false, false, false, false, 0, OUT_APART, AFTER_NONE, false, false, false},
      {0, 1, 37, W_INPUT, true, true, true, true, 0, OUT_OVER_W, AFTER_NONE, false, false, false},
      {0, 4, 17, W_NONE, true, false, false, true, 2, OUT_OVER_X, AFTER_NONE, false, false, false},
      {0, 5, 33, W_CONST, false, true, false, true, 2, OUT_OVER_X, AFTER_NONE, false, false, false},
      {0, 600, 33, W_INPUT, false, false, false, true, 1, OUT_APART, AFTER_NONE, false, false, false},
      {0, 300, 70, W_NONE, true, false, true, false, 0, OUT_OVER_X, AFTER_NONE, false, false, false},
      {0, 1, 1, W_CONST, false, false, false, false, 0, OUT_APART, AFTER_NONE, false, false, false},
      /* not fused */
      {0, 3, 19, W_CONST, false, false, false, true, 0, OUT_APART, AFTER_T99, false, false, false},
      {0, 3, 19, W_INPUT, true, false, false, false, 0, OUT_APART, AFTER_T100, false, false, false},
      {0, 4, 21, W_CONST, false, false, false, false, 0, OUT_APART, AFTER_NONE, true, false, false},
      {0, 1, 21, W_NONE, false, false, false, false, 0, OUT_APART, AFTER_NONE, false, true, false},
      {2, 2, 21, W_CONST, true, true, false, true, 0, OUT_APART, AFTER_NONE, false, false, true},
      /* T100 read after without the weight: it is the group's output, fused */
      {0, 3, 19, W_NONE, false, false, false, true, 0, OUT_APART, AFTER_T100, false, false, false},
  };
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
      check_case(&fixed[i], NULL);
      check_case(&fixed[i], pool);
    }
    for (int i = 0; i < 24; i++) {
      cfg c = random_cfg();
      check_case(&c, i % 2 ? pool : NULL);
    }
  }
  pk_isa_force(PK_ISA_COUNT);
  ptera_threadpool_destroy(pool);
  return check_summary("fuse_rmsnorm");
}

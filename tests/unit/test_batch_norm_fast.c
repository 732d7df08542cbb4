/* _native_batch_norm_legit_no_training's float32 fast path
 * (portable/util/batch_norm_fast.c) against the portable kernel: random
 * shapes of rank 2..5 (tails past every vector width), contiguous and
 * channels-last inputs, weight/bias present or None, constant parameters
 * (precomputed at prepare) or activations (per call, in the declared
 * workspace), inputs and statistics with NaN, +-inf, -0.0, zero and negative
 * variances; every available ISA forced in turn, with and without a thread
 * pool. Results must agree bit for bit. The channels-last portable path is
 * itself checked against the contiguous one on the same logical tensor. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "check.h"
#include "cpu/isa.h"
#include "portable/util/fast_f32.h"
#include "ptera/ptera.h"
#include "ptera/threadpool.h"
#include "runtime/kernel_ctx.h"

#define CAP 6000
static float x[CAP], xcl[CAP], par[4][64], ref[CAP], got[CAP], empty0[1], empty1[1];
static uint32_t rng = 99991u;

static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static float rval(bool edges) {
  static const float e[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-40f};
  if (edges && rnd() % 12 == 0) return e[rnd() % 6];
  return (float)((double)(rnd() % 80001u) / 10000.0 - 4.0);
}

typedef struct bn_call {
  ptera_tensor t[11];
  ptera_value v[12];
  ptera_value *args[12];
} bn_call;

static void set_tensor(bn_call *c, size_t i, float *data, size_t dim, const int32_t *sizes,
                       bool cl, bool cnst) {
  ptera_tensor *t = &c->t[i];
  memset(t, 0, sizeof *t);
  t->data = data;
  t->dtype = PTERA_DTYPE_FLOAT;
  t->dim = (uint8_t)dim;
  size_t n = 1;
  for (size_t d = 0; d < dim; d++) {
    t->sizes[d] = sizes[d];
    n *= (size_t)sizes[d];
  }
  for (size_t d = 0; d < dim; d++) t->dim_order[d] = (uint8_t)d;
  if (cl && dim >= 3) { /* 0, 2, ..., dim-1, 1 */
    for (size_t d = 1; d + 1 < dim; d++) t->dim_order[d] = (uint8_t)(d + 1);
    t->dim_order[dim - 1] = 1;
  }
  t->numel = n;
  t->capacity = (n ? n : 1) * sizeof(float);
  t->flags = cnst ? PTERA_TENSOR_CONST : 0;
  ptera_tensor_update_strides(t);
  c->v[i].tag = PTERA_TAG_TENSOR;
  c->v[i].u.tensor = t;
}

typedef struct bn_case {
  size_t dim;
  int32_t s[5];
  bool cl, affine, cnst;
  double eps;
} bn_case;

/* Prepares and runs the kernel on in (layout cl) into out; with the fast
 * paths off, the portable kernel. */
static ptera_status run_case(const bn_case *k, float *in, bool cl, float *out,
                             ptera_threadpool *pool) {
  bn_call c;
  memset(&c, 0, sizeof c);
  int32_t cs[1] = {k->s[1]}, zs[1] = {0};
  set_tensor(&c, 0, in, k->dim, k->s, cl, false);
  for (size_t p = 0; p < 4; p++) set_tensor(&c, 1 + p, par[p], 1, cs, false, k->cnst);
  if (!k->affine) c.v[1].tag = c.v[2].tag = PTERA_TAG_NONE;
  c.v[5].tag = PTERA_TAG_DOUBLE;
  c.v[5].u.d = 0.1;
  c.v[6].tag = PTERA_TAG_DOUBLE;
  c.v[6].u.d = k->eps;
  set_tensor(&c, 7, out, k->dim, k->s, cl, false);
  set_tensor(&c, 8, empty0, 1, zs, false, false);
  set_tensor(&c, 9, empty1, 1, zs, false, false);
  c.v[10].tag = PTERA_TAG_LIST_TENSOR;
  for (size_t i = 0; i < 11; i++) c.args[i] = &c.v[i];

  static const char op[] = "aten::_native_batch_norm_legit_no_training.out";
  pt_err err;
  memset(&err, 0, sizeof err);
  pr_packed *list = NULL;
  size_t packed_bytes = 0;
  ptera_kernel_prepare_ctx pc = {op, &err, NULL, &list, &packed_bytes, ptera_threadpool_size(pool),
                                 NULL, 0};
  CHECK(pk_native_batch_norm_legit_no_training_prepare(&pc, c.args, 11) == PTERA_OK);
  /* constant parameters: state, no workspace; otherwise a declared workspace */
  CHECK(k->cnst ? pc.state != NULL && pc.workspace == 0 : pc.state == NULL && pc.workspace > 0);
  size_t ws = pc.workspace + 2 * 64 * sizeof(double); /* and the portable kernel's */
  void *temp = aligned_alloc(64, (ws + 63) / 64 * 64);
  ptera_kernel_ctx kc;
  pr_kernel_ctx_init(&kc, op, &err, temp, ws);
  kc.state = pc.state;
  kc.pool = pool;
  ptera_status st = pk_native_batch_norm_legit_no_training_out(&kc, c.args, 11);
  free(temp);
  while (list) {
    pr_packed *next = list->next;
    pt_free(NULL, list);
    list = next;
  }
  return st;
}

/* NCHW [n, C, sp] -> channels-last memory [n, sp, C]. */
static void to_cl(const float *src, float *dst, size_t n, size_t C, size_t sp, bool back) {
  for (size_t a = 0; a < n; a++)
    for (size_t c = 0; c < C; c++)
      for (size_t j = 0; j < sp; j++) {
        size_t i0 = (a * C + c) * sp + j, i1 = (a * sp + j) * C + c;
        if (back) dst[i0] = src[i1];
        else dst[i1] = src[i0];
      }
}

static size_t count_diff(const float *a, const float *b, size_t n, const char *what) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    if (memcmp(&a[i], &b[i], sizeof(float)) != 0 && bad++ < 3)
      printf("  %s [%zu]: %.9g vs %.9g\n", what, i, a[i], b[i]);
  return bad;
}

static void one_case(const bn_case *k, ptera_threadpool *pool) {
  size_t n = 1, C = (size_t)k->s[1], sp = 1;
  for (size_t d = 0; d < k->dim; d++) n *= (size_t)k->s[d];
  for (size_t d = 2; d < k->dim; d++) sp *= (size_t)k->s[d];
  const float *in = x;
  if (k->cl) {
    to_cl(x, xcl, (size_t)k->s[0], C, sp, false);
    in = xcl;
  }
  pk_fast_f32_enable(false);
  CHECK(run_case(k, x, false, ref, pool) == PTERA_OK); /* portable, contiguous */
  if (k->cl) {
    static float tmp[CAP];
    CHECK(run_case(k, xcl, true, got, pool) == PTERA_OK); /* portable, channels-last */
    to_cl(got, tmp, (size_t)k->s[0], C, sp, true);
    CHECK(count_diff(tmp, ref, n, "portable channels-last") == 0);
  }
  pk_fast_f32_enable(true);
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    memset(got, 0xA5, sizeof got);
    CHECK(run_case(k, (float *)in, k->cl, got, pool) == PTERA_OK);
    static float back[CAP];
    const float *cmp = got;
    if (k->cl) {
      to_cl(got, back, (size_t)k->s[0], C, sp, true);
      cmp = back;
    }
    if (count_diff(cmp, ref, n, pk_isa_name((pk_isa)isa))) {
      printf("  case dim %zu C %zu sp %zu cl %d affine %d const %d\n", k->dim, C, sp, k->cl,
             k->affine, k->cnst);
      CHECK(0);
    }
  }
  pk_isa_force(PK_ISA_COUNT);
}

static void run_all(ptera_threadpool *pool) {
  for (int trial = 0; trial < 40; trial++) {
    bool edges = trial % 3 == 0;
    for (size_t i = 0; i < CAP; i++) x[i] = rval(edges);
    for (size_t p = 0; p < 4; p++)
      for (size_t c = 0; c < 64; c++) par[p][c] = rval(edges);
    for (size_t c = 0; c < 64; c++) /* variances mostly positive; some 0 or negative */
      par[3][c] = rnd() % 10 == 0 ? -par[3][c] : fabsf(par[3][c]);
    bn_case k;
    memset(&k, 0, sizeof k);
    size_t n;
    do {
      k.dim = 2 + (size_t)trial % 4;
      n = 1;
      for (size_t d = 0; d < k.dim; d++) {
        k.s[d] = (int32_t)(d == 0 ? 1 + rnd() % 2 : d == 1 ? 1 + rnd() % 40 : 1 + rnd() % 9);
        n *= (size_t)k.s[d];
      }
      if (trial == 7) k.s[2] = 23, k.s[3] = 37, k.s[1] = 3; /* planes past the task grain */
      n = 1;
      for (size_t d = 0; d < k.dim; d++) n *= (size_t)k.s[d];
    } while (n > CAP);
    k.cl = k.dim >= 3 && trial % 2 == 1;
    k.affine = trial % 5 != 2;
    k.cnst = trial % 3 != 1;
    k.eps = trial % 7 == 0 ? 0.0 : 1e-5;
    one_case(&k, pool);
  }
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  run_all(NULL);
  run_all(pool);
  ptera_threadpool_destroy(pool);
  return check_summary("batch_norm_fast");
}

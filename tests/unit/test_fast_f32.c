/* The float32 fast paths (portable/util/fast_f32.c) against the portable
 * kernels themselves: each case runs once with the fast paths off (the
 * portable loop) and once per available ISA with them on, on randomized
 * shapes, broadcasts (row, column, scalar, 0-d), permuted dim orders (which
 * take the fallback or a different run layout) and values sprinkled with
 * NaN, +-inf, -0.0 and denormals. Exact ops must agree bit for bit, the
 * others within the conformance suite's float tolerances. */
#include "kernel_test_util.h"

#include "cpu/isa.h"
#include "portable/util/fast_f32.h"

#define CAP 4096
static float xa[CAP], xb[CAP], ref[3][CAP], got[3][CAP];
static uint8_t xm[CAP];
static uint32_t rng = 2463534242u;

static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static float rval(bool edges) {
  static const float e[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-40f, -1e-40f, 100.0f};
  if (edges && rnd() % 16 == 0) return e[rnd() % 8];
  return (float)((double)(rnd() % 80001u) / 10000.0 - 4.0);
}
static void fill(bool edges) {
  for (size_t i = 0; i < CAP; i++) {
    xa[i] = rval(edges);
    xb[i] = rval(edges);
    xm[i] = (uint8_t)(rnd() % 3 == 0);
  }
}

typedef struct shape {
  size_t dim;
  int32_t s[4];
  uint8_t order[4];
  bool permuted;
} shape;

static size_t numel(const shape *s) {
  size_t n = 1;
  for (size_t i = 0; i < s->dim; i++) n *= (size_t)s->s[i];
  return n;
}
static ptera_value *tens(int dt, void *data, const shape *s) {
  return kt_tensor(dt, data, CAP * sizeof(float), s->dim, s->s, s->permuted ? s->order : NULL,
                   PTERA_SHAPE_STATIC);
}
/* Random shape of rank 1..4; the last dim long enough to exercise vector bodies and tails. */
static shape rshape(void) {
  shape s;
  do {
    memset(&s, 0, sizeof s);
    s.dim = 1 + rnd() % 4;
    for (size_t i = 0; i < s.dim; i++) s.s[i] = (int32_t)(1 + rnd() % 6);
    s.s[s.dim - 1] = (int32_t)(1 + rnd() % 40);
    for (size_t i = 0; i < s.dim; i++) s.order[i] = (uint8_t)i;
  } while (numel(&s) > 512); /* the buffers hold CAP; layer norm's bias sits at xb + 512 */
  return s;
}
static void permute(shape *s) {
  if (s->dim < 2) return;
  uint8_t t = s->order[0];
  s->order[0] = s->order[s->dim - 1];
  s->order[s->dim - 1] = t;
  s->permuted = true;
}
/* A broadcastable partner: dims set to 1 at random, sometimes leading dims dropped. */
static shape rbcast(const shape *a) {
  shape b = *a;
  b.permuted = false;
  for (size_t i = 0; i < b.dim; i++)
    if (rnd() % 3 == 0) b.s[i] = 1;
  if (rnd() % 3 == 0 && b.dim > 1) {
    size_t drop = 1 + rnd() % (b.dim - 1);
    memmove(b.s, b.s + drop, (b.dim - drop) * sizeof(int32_t));
    b.dim -= drop;
  }
  for (size_t i = 0; i < b.dim; i++) b.order[i] = (uint8_t)i;
  return b;
}

typedef ptera_status (*runner)(void *cx, float *const *outs);

static bool same(float g, float w, double rtol, double atol) {
  if (isnan(w) || isnan(g)) return isnan(w) && isnan(g);
  if (rtol < 0) return memcmp(&g, &w, sizeof g) == 0; /* exact */
  if (isinf(w) || isinf(g)) return g == w;
  return fabs((double)g - (double)w) <= atol + rtol * fabs((double)w);
}

/* Runs r with the fast paths off, then on for every ISA, and compares nout
 * outputs of n[k] elements. rtol < 0: bit for bit. */
static void compare(const char *name, runner r, void *cx, size_t nout, const size_t *n,
                    double rtol, double atol) {
  float *ro[3] = {ref[0], ref[1], ref[2]}, *go[3] = {got[0], got[1], got[2]};
  pk_fast_f32_enable(false);
  ptera_status want = r(cx, ro);
  pk_fast_f32_enable(true);
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    for (size_t k = 0; k < nout; k++) memset(got[k], 0xA5, n[k] * sizeof(float));
    ptera_status st = r(cx, go);
    CHECK(st == want);
    size_t bad = 0;
    for (size_t k = 0; k < nout && st == PTERA_OK; k++)
      for (size_t i = 0; i < n[k]; i++)
        if (!same(got[k][i], ref[k][i], rtol, atol)) {
          if (bad++ < 3)
            printf("  %s [%s] out%zu[%zu]: fast %.9g portable %.9g\n", name,
                   pk_isa_name((pk_isa)isa), k, i, got[k][i], ref[k][i]);
        }
    CHECK(bad == 0);
  }
  pk_isa_force(PK_ISA_COUNT);
}

/* ---- binary ---- */
typedef struct bin_cx {
  const char *op;
  shape a, b, o;
  int kind; /* 0 tensor-tensor with alpha, 1 tensor-tensor, 2 tensor-scalar, 3 pow by 2 */
  double alpha, scalar;
} bin_cx;

static ptera_status run_bin(void *v, float *const *outs) {
  bin_cx *c = (bin_cx *)v;
  ptera_value *out = tens(PTERA_DTYPE_FLOAT, outs[0], &c->o);
  ptera_value *a = tens(PTERA_DTYPE_FLOAT, xa, &c->a), *b = tens(PTERA_DTYPE_FLOAT, xb, &c->b);
  switch (c->kind) {
    case 0: return KT_CALL(c->op, a, b, kt_dbl(c->alpha), out, out);
    case 1: return KT_CALL(c->op, a, b, out, out);
    case 2: return KT_CALL(c->op, a, kt_dbl(c->scalar), out, out);
    default: return KT_CALL(c->op, a, kt_int(2), out, out);
  }
}

static void bcast_out(const shape *a, const shape *b, shape *o) {
  memset(o, 0, sizeof *o);
  o->dim = a->dim > b->dim ? a->dim : b->dim;
  for (size_t i = 0; i < o->dim; i++) {
    size_t ia = o->dim - 1 - i;
    int32_t sa = i < a->dim ? a->s[a->dim - 1 - i] : 1, sb = i < b->dim ? b->s[b->dim - 1 - i] : 1;
    o->s[ia] = sa > sb ? sa : sb;
    o->order[ia] = (uint8_t)ia;
  }
}

static void test_binary(void) {
  static const char *tt_alpha[] = {"aten::add.out", "aten::sub.out"};
  static const char *tt[] = {"aten::mul.out", "aten::div.out"};
  static const char *ts[] = {"aten::add.Scalar_out", "aten::mul.Scalar_out", "aten::div.Scalar_out"};
  for (int trial = 0; trial < 60; trial++) {
    fill(true);
    bin_cx c;
    memset(&c, 0, sizeof c);
    c.a = rshape();
    c.b = rbcast(&c.a);
    if (trial % 2) { shape t = c.a; c.a = c.b; c.b = t; } /* broadcast either side */
    if (trial % 5 == 0) permute(&c.a);
    if (trial % 7 == 0) c.b.dim = 0; /* 0-d tensor */
    bcast_out(&c.a, &c.b, &c.o);
    size_t n = numel(&c.o);
    c.kind = 0;
    c.alpha = trial % 4 == 0 ? 2.5 : 1.0; /* alpha != 1 stays portable */
    for (int k = 0; k < 2; k++) {
      c.op = tt_alpha[k];
      compare(c.op, run_bin, &c, 1, &n, -1, 0);
    }
    c.kind = 1;
    for (int k = 0; k < 2; k++) {
      c.op = tt[k];
      compare(c.op, run_bin, &c, 1, &n, -1, 0);
    }
    c.kind = 2;
    c.b = c.o = c.a;
    c.o.permuted = false;
    n = numel(&c.o);
    c.scalar = trial % 3 == 0 ? 0.0 : -1.75;
    for (int k = 0; k < 3; k++) {
      c.op = ts[k];
      compare(c.op, run_bin, &c, 1, &n, -1, 0);
    }
    c.kind = 3;
    c.op = "aten::pow.Tensor_Scalar_out";
    compare(c.op, run_bin, &c, 1, &n, 2e-7, 0); /* powf(x, 2) vs x*x: within an ulp */
  }
}

/* ---- unary ---- */
typedef struct un_cx {
  const char *op;
  shape a, o;
  int extra; /* 0 none, 1 gelu "none", 2 gelu "tanh", 3 hardtanh, 4.. clamp (bounds below) */
} un_cx;

static ptera_status run_un(void *v, float *const *outs) {
  un_cx *c = (un_cx *)v;
  ptera_value *out = tens(PTERA_DTYPE_FLOAT, outs[0], &c->o);
  ptera_value *a = tens(PTERA_DTYPE_FLOAT, xa, &c->a);
  if (c->extra == 1 || c->extra == 2) {
    ptera_value *s = kt_val(PTERA_TAG_STRING);
    s->u.str.ptr = c->extra == 1 ? "none" : "tanh";
    s->u.str.len = 4;
    return KT_CALL(c->op, a, s, out, out);
  }
  if (c->extra == 3) return KT_CALL(c->op, a, kt_dbl(-0.5), kt_dbl(1.25), out, out);
  if (c->extra >= 4) { /* clamp: a zero bound meets -0.0 inputs; one bound only; lo > hi; an Int bound */
    switch (c->extra) {
      case 4: return KT_CALL(c->op, a, kt_dbl(0.0), kt_none(), out, out);
      case 5: return KT_CALL(c->op, a, kt_none(), kt_dbl(-0.0), out, out);
      case 6: return KT_CALL(c->op, a, kt_dbl(-0.5), kt_dbl(1.25), out, out);
      case 7: return KT_CALL(c->op, a, kt_dbl(1.0), kt_dbl(-1.0), out, out);
      default: return KT_CALL(c->op, a, kt_int(-1), kt_dbl(NAN), out, out);
    }
  }
  return KT_CALL(c->op, a, out, out);
}

static void test_unary(void) {
  static const struct {
    const char *op;
    int extra;
    double rtol, atol;
  } ops[] = {{"aten::exp.out", 0, 2e-5, 1e-6},     {"aten::tanh.out", 0, 2e-5, 1e-6},
             {"aten::sigmoid.out", 0, 2e-5, 1e-6}, {"aten::rsqrt.out", 0, 2e-5, 1e-6},
             {"aten::relu.out", 0, -1, 0},         {"aten::neg.out", 0, -1, 0},
             {"aten::gelu.out", 1, 1e-5, 1e-6},    {"aten::gelu.out", 2, 1e-5, 1e-6},
             {"aten::hardtanh.out", 3, -1, 0},     {"aten::clamp.out", 4, -1, 0},
             {"aten::clamp.out", 5, -1, 0},        {"aten::clamp.out", 6, -1, 0},
             {"aten::clamp.out", 7, -1, 0},        {"aten::clamp.out", 8, -1, 0}};
  for (int trial = 0; trial < 24; trial++) {
    fill(true);
    un_cx c;
    memset(&c, 0, sizeof c);
    c.a = rshape();
    if (trial % 3 == 0) permute(&c.a);
    c.o = c.a;
    if (trial % 6 == 0) c.o.permuted = false; /* layouts differ: rows, or the fallback */
    if (trial % 4 == 0) { /* long rows: several vector bodies, split flat runs */
      for (size_t d = 0; d + 1 < c.a.dim; d++) c.a.s[d] = d + 2 == c.a.dim ? 3 : 1;
      c.a.s[c.a.dim - 1] = (int32_t)(200 + rnd() % 300);
    }
    memcpy(c.o.s, c.a.s, sizeof c.o.s);
    size_t n = numel(&c.o);
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
      c.op = ops[k].op;
      c.extra = ops[k].extra;
      compare(c.op, run_un, &c, 1, &n, ops[k].rtol, ops[k].atol);
    }
  }
}

/* ---- softmax, layer norm, reductions, where, masked_fill ---- */
typedef struct row_cx {
  const char *op;
  shape a, o, o2, m;
  int64_t dim;
  int nlast; /* layer norm: normalized dims; reductions: 0 = all dims */
  bool keepdim, affine;
} row_cx;

static ptera_status run_softmax(void *v, float *const *outs) {
  row_cx *c = (row_cx *)v;
  return KT_CALL(c->op, tens(PTERA_DTYPE_FLOAT, xa, &c->a), kt_int(c->dim), kt_bool(false),
                 tens(PTERA_DTYPE_FLOAT, outs[0], &c->o), tens(PTERA_DTYPE_FLOAT, outs[0], &c->o));
}

static ptera_status run_layer_norm(void *v, float *const *outs) {
  row_cx *c = (row_cx *)v;
  int64_t ns[4];
  size_t k = 0;
  for (size_t d = c->a.dim - (size_t)c->nlast; d < c->a.dim; d++) ns[k++] = c->a.s[d];
  shape ws = {k, {0}, {0, 1, 2, 3}, false};
  for (size_t i = 0; i < k; i++) ws.s[i] = (int32_t)ns[i];
  ptera_value *w = c->affine ? tens(PTERA_DTYPE_FLOAT, xb, &ws) : kt_none();
  ptera_value *b = c->affine ? tens(PTERA_DTYPE_FLOAT, xb + 512, &ws) : kt_none();
  ptera_value *o0 = tens(PTERA_DTYPE_FLOAT, outs[0], &c->o);
  ptera_value *o1 = tens(PTERA_DTYPE_FLOAT, outs[1], &c->o2);
  ptera_value *o2 = tens(PTERA_DTYPE_FLOAT, outs[2], &c->o2);
  return KT_CALL("aten::native_layer_norm.out", tens(PTERA_DTYPE_FLOAT, xa, &c->a),
                 kt_ilist_n(k, ns), w, b, kt_dbl(1e-5), o0, o1, o2, o0);
}

static ptera_status run_reduce(void *v, float *const *outs) {
  row_cx *c = (row_cx *)v;
  ptera_value *out = tens(PTERA_DTYPE_FLOAT, outs[0], &c->o);
  ptera_value *dims = c->nlast ? KT_IL(c->dim) : KT_IL0();
  if (strcmp(c->op, "aten::amax.out") == 0)
    return KT_CALL(c->op, tens(PTERA_DTYPE_FLOAT, xa, &c->a), dims, kt_bool(c->keepdim), out, out);
  return KT_CALL(c->op, tens(PTERA_DTYPE_FLOAT, xa, &c->a), dims, kt_bool(c->keepdim), kt_none(),
                 out, out);
}

static ptera_status run_where(void *v, float *const *outs) {
  row_cx *c = (row_cx *)v;
  ptera_value *out = tens(PTERA_DTYPE_FLOAT, outs[0], &c->o);
  return KT_CALL(c->op, tens(PTERA_DTYPE_BOOL, xm, &c->m), tens(PTERA_DTYPE_FLOAT, xa, &c->a),
                 tens(PTERA_DTYPE_FLOAT, xb, &c->o2), out, out);
}

static ptera_status run_masked_fill(void *v, float *const *outs) {
  row_cx *c = (row_cx *)v;
  ptera_value *out = tens(PTERA_DTYPE_FLOAT, outs[0], &c->o);
  return KT_CALL(c->op, tens(PTERA_DTYPE_FLOAT, xa, &c->a), tens(PTERA_DTYPE_BOOL, xm, &c->m),
                 kt_dbl(-INFINITY), out, out);
}

static void test_rows(void) {
  for (int trial = 0; trial < 30; trial++) {
    fill(trial % 3 == 0);
    row_cx c;
    memset(&c, 0, sizeof c);
    c.a = rshape();
    if (trial % 4 == 1) permute(&c.a);
    c.o = c.a;
    size_t n = numel(&c.a);
    /* softmax over the last dim (fast) or another (portable), and log_softmax */
    c.dim = trial % 3 == 2 ? 0 : -1;
    c.op = "aten::_softmax.out";
    compare(c.op, run_softmax, &c, 1, &n, 1e-5, 1e-6);
    c.op = "aten::_log_softmax.out";
    compare(c.op, run_softmax, &c, 1, &n, 1e-5, 1e-6);

    /* layer norm over the last one or two dims (row-major input only) */
    c.a.permuted = c.o.permuted = false;
    c.nlast = c.a.dim >= 2 && trial % 2 ? 2 : 1;
    c.affine = trial % 3 != 1;
    c.o2 = c.a;
    for (size_t d = c.a.dim - (size_t)c.nlast; d < c.a.dim; d++) c.o2.s[d] = 1;
    size_t nl[3] = {n, numel(&c.o2), numel(&c.o2)};
    compare("native_layer_norm", run_layer_norm, &c, 3, nl, 1e-5, 1e-5);

    /* sum / mean / amax over the last dim, the first, or all */
    if (trial % 4 == 3) permute(&c.a);
    c.nlast = trial % 5 == 4 ? 0 : 1;
    c.dim = trial % 3 == 2 ? 0 : -1;
    c.keepdim = trial % 2 == 0;
    c.o = c.a;
    c.o.permuted = false;
    if (c.nlast == 0) {
      c.o.dim = c.keepdim ? c.a.dim : 0;
      for (size_t d = 0; d < c.o.dim; d++) c.o.s[d] = 1;
    } else {
      size_t d = c.dim < 0 ? c.a.dim - 1 : 0;
      if (c.keepdim) {
        c.o.s[d] = 1;
      } else {
        memmove(c.o.s + d, c.o.s + d + 1, (c.o.dim - d - 1) * sizeof(int32_t));
        c.o.dim--;
      }
    }
    for (size_t d = 0; d < 4; d++) c.o.order[d] = (uint8_t)d;
    size_t nr = numel(&c.o);
    c.op = "aten::sum.IntList_out";
    compare(c.op, run_reduce, &c, 1, &nr, 1e-5, 1e-4);
    c.op = "aten::mean.out";
    compare(c.op, run_reduce, &c, 1, &nr, 1e-5, 1e-5);
    c.op = "aten::amax.out";
    compare(c.op, run_reduce, &c, 1, &nr, 0, 0);

    /* where(mask, a, b) and masked_fill(a, mask, -inf) with broadcast masks */
    c.a.permuted = false;
    c.o = c.a;
    if (trial % 3 == 0) permute(&c.a);
    c.m = rbcast(&c.o);
    c.o2 = rbcast(&c.o);
    c.op = "aten::where.self_out";
    compare(c.op, run_where, &c, 1, &n, -1, 0);
    c.op = "aten::masked_fill.Scalar_out";
    compare(c.op, run_masked_fill, &c, 1, &n, -1, 0);
  }
}

int main(void) {
  test_binary();
  test_unary();
  test_rows();
  return check_summary("fast_f32");
}

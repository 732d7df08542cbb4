/* pc_fold_batch_norm on hand-built graphs: the folded weight and bias against
 * the formula (computed here in double from the unfolded parameters), the
 * program compiled with and without the pass run against a direct
 * convolution + batch norm reference, and every condition that must keep
 * the pair as it is. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compile.h"
#include "compile_util.h"
#include "ptera/ptera.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})

/* A 1x1 convolution, 2 -> 2 channels, over x [1, 2, 1, 2]. */
static const float xd[] = {1, 2, 3, -1};             /* channel 0: 1 2, channel 1: 3 -1 */
static const float wd[] = {0.5f, -1, 2, 0.25f};      /* W[o][i] */
static const float bd[] = {0.1f, -0.2f};
static const float gd[] = {1.5f, -0.5f}, betad[] = {0.3f, 0.7f};
static const float meand[] = {0.2f, -0.4f}, vard[] = {4.0f, 0.25f};
static const double eps = 1e-5;

static int32_t fconst(pc_graph *g, uint32_t dim, const int32_t *sizes, const float *d, size_t n,
                      const char *fqn) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, dim, sizes, PC_T_CONST, d, n * sizeof(float), fqn);
}

enum {
  PLAIN = 0,
  NO_BIAS = 1,       /* conv bias and BN weight/bias None */
  SECOND_READER = 2, /* the conv output is also a method output */
  STAT_READ = 4,     /* the BN's mean output is a method output */
  TRANSPOSED = 8,    /* a transposed convolution */
  NAMED = 16,        /* weight named while names are replaceable */
  READ_TWICE = 32    /* an add also reads the conv output */
};

typedef struct built {
  pc_graph *g;
  int32_t x, conv, bn, y, z, w;
} built;

static built build(int flags) {
  built b;
  pc_graph *g = b.g = pc_graph_new(NULL, "forward");
  CHECK(g != NULL);
  g->named_consts_replaceable = (flags & NAMED) != 0;
  b.x = cu_fact(g, 4, IDS(1, 2, 1, 2));
  b.w = fconst(g, 4, IDS(2, 2, 1, 1), wd, 4, (flags & NAMED) ? "conv.weight" : NULL);
  int32_t none = pc_graph_none(g);
  int32_t bias = (flags & NO_BIAS) ? none : fconst(g, 1, IDS(2), bd, 2, NULL);
  int32_t ones = pc_graph_ints(g, (const int64_t[]){1, 1}, 2);
  int32_t zeros = pc_graph_ints(g, (const int64_t[]){0, 0}, 2);
  int32_t tr = pc_graph_bool(g, (flags & TRANSPOSED) != 0), groups = pc_graph_int(g, 1);
  b.y = cu_fact(g, 4, IDS(1, 2, 1, 2));
  b.z = cu_fact(g, 4, IDS(1, 2, 1, 2));
  int32_t s1 = cu_fact(g, 1, IDS(0)), s2 = cu_fact(g, 1, IDS(0));
  int32_t gamma = (flags & NO_BIAS) ? none : fconst(g, 1, IDS(2), gd, 2, NULL);
  int32_t beta = (flags & NO_BIAS) ? none : fconst(g, 1, IDS(2), betad, 2, NULL);
  int32_t mean = fconst(g, 1, IDS(2), meand, 2, NULL), var = fconst(g, 1, IDS(2), vard, 2, NULL);
  int32_t mom = pc_graph_double(g, 0.1), e = pc_graph_double(g, eps);
  static const uint8_t cw[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  static const uint8_t bw[10] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1};
  b.conv = pc_graph_call(g, "aten::convolution.out",
                         IDS(b.x, b.w, bias, ones, zeros, ones, tr, zeros, groups, b.y), cw, 10);
  b.bn = pc_graph_call(g, "aten::_native_batch_norm_legit_no_training.out",
                       IDS(b.y, gamma, beta, mean, var, mom, e, b.z, s1, s2), bw, 10);
  int32_t outs[3] = {b.z, b.y, s1};
  uint32_t nout = 1;
  if (flags & READ_TWICE) {
    int32_t one = pc_graph_int(g, 1), sum = cu_fact(g, 4, IDS(1, 2, 1, 2));
    CHECK(pc_graph_call(g, "aten::add.out", IDS(b.z, b.y, one, sum), (const uint8_t[]){0, 0, 0, 1},
                        4) >= 0);
    outs[0] = sum;
  }
  if (flags & SECOND_READER) outs[nout++] = b.y;
  if (flags & STAT_READ) outs[nout++] = s1;
  CHECK(pc_graph_set_inputs(g, &b.x, 1) == PTERA_OK);
  CHECK(pc_graph_set_outputs(g, outs, nout) == PTERA_OK);
  return b;
}

/* The reference: z = gamma (conv(x) - mean) / sqrt(var + eps) + beta. */
static double reference(int flags, int o, int p) {
  double y = (flags & NO_BIAS) ? 0 : bd[o];
  for (int i = 0; i < 2; i++) y += (double)wd[o * 2 + i] * xd[i * 2 + p];
  double g = (flags & NO_BIAS) ? 1 : gd[o], beta = (flags & NO_BIAS) ? 0 : betad[o];
  return g * (y - meand[o]) / sqrt(vard[o] + eps) + beta;
}

static void test_folded_params(int flags) {
  built b = build(flags);
  pc_pass_stats st = {0};
  CHECK(pc_fold_batch_norm(b.g, &st) == PTERA_OK);
  CHECK(st.bn_folded == 1);
  const pc_gnode *c = &b.g->nodes[b.conv];
  CHECK(b.g->nodes[b.bn].removed && !c->removed);
  CHECK(strcmp(c->op, "aten::convolution.out") == 0 && c->nargs == 10 && c->args[9] == b.z);
  CHECK(c->args[0] == b.x && c->args[1] != b.w);
  const pc_gtensor *w = &b.g->values[c->args[1]].u.t, *bias = &b.g->values[c->args[2]].u.t;
  CHECK(b.g->values[c->args[2]].kind == PC_G_TENSOR && w->store == PC_T_CONST &&
        bias->store == PC_T_CONST && w->dtype == PTERA_DTYPE_FLOAT && w->dim == 4 &&
        bias->dim == 1 && bias->sizes[0] == 2 && w->nbytes == 16 && bias->nbytes == 8);
  /* The original weight is untouched (other readers may keep it). */
  CHECK(memcmp(b.g->values[b.w].u.t.data, wd, sizeof wd) == 0);
  for (int o = 0; o < 2; o++) {
    double g = (flags & NO_BIAS) ? 1 : gd[o], beta = (flags & NO_BIAS) ? 0 : betad[o];
    double s = g / sqrt(vard[o] + eps), b0 = (flags & NO_BIAS) ? 0 : bd[o];
    for (int i = 0; i < 2; i++)
      CHECK(((const float *)w->data)[o * 2 + i] == (float)(wd[o * 2 + i] * s));
    CHECK(((const float *)bias->data)[o] == (float)((b0 - meand[o]) * s + beta));
  }
  pc_graph_free(b.g);
}

/* Every condition that keeps the pair as it is. */
static void test_kept(void) {
  const int cases[] = {SECOND_READER, STAT_READ, TRANSPOSED, NAMED, READ_TWICE};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    built b = build(cases[i]);
    pc_pass_stats st = {0};
    CHECK(pc_fold_batch_norm(b.g, &st) == PTERA_OK);
    CHECK(st.bn_folded == 0 && !b.g->nodes[b.bn].removed);
    CHECK(b.g->nodes[b.conv].args[9] == b.y && b.g->nodes[b.conv].args[1] == b.w);
    pc_graph_free(b.g);
  }
  /* A mutated running variance: an in-place add writes it after the BN. */
  built b = build(PLAIN);
  int32_t var = b.g->nodes[b.bn].args[4], one = pc_graph_int(b.g, 1);
  CHECK(pc_graph_call(b.g, "aten::add.out", IDS(var, var, one, var),
                      (const uint8_t[]){0, 0, 0, 1}, 4) >= 0);
  pc_pass_stats st = {0};
  CHECK(pc_fold_batch_norm(b.g, &st) == PTERA_OK && st.bn_folded == 0);
  pc_graph_free(b.g);
}

/* Compiles build(flags) with or without the pass, runs it and compares with
 * the reference. */
static void run(int flags, bool no_fold) {
  built b = build(flags);
  pc_compile_options o = cu_options(PC_BACKEND_NONE);
  o.no_fold_bn = no_fold;
  o.weight_keys = PC_WEIGHT_KEYS_FQN;
  pc_compile_result r;
  if (!cu_compile(b.g, &o, &r)) {
    pc_graph_free(b.g);
    return;
  }
  CHECK(r.methods[0].passes.bn_folded == (no_fold ? 0u : 1u));
  CHECK(r.methods[0].nodes_after == (no_fold ? 2u : 1u));
  ptera_program *prog;
  ptera_method *m;
  const ptera_tensor *z = cu_run_forward(&r, xd, 4, IDS(1, 2, 1, 2), 4, &prog, &m);
  if (z)
    for (int o2 = 0; o2 < 2; o2++)
      for (int p = 0; p < 2; p++) {
        double want = reference(flags, o2, p);
        double got = ((const float *)z->data)[o2 * 2 + p];
        CHECK(fabs(got - want) <= 1e-6 * (1 + fabs(want)));
      }
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  pc_compile_result_free(&r);
  pc_graph_free(b.g);
}

int main(void) {
  test_folded_params(PLAIN);
  test_folded_params(NO_BIAS);
  test_kept();
  run(PLAIN, false);
  run(PLAIN, true);
  run(NO_BIAS, false);
  return check_summary("test_fold_bn");
}

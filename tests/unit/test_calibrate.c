/* pc_calibrate, the quantization parameters (calibrate.h) and the Cortex-M
 * lowering's argument conventions and errors (to_cortex_m.h), on small
 * hand-built graphs. Expected values are worked out by hand in the comments. */
#include <math.h>
#include <string.h>

#include "calibrate.h"
#include "check.h"
#include "graph.h"
#include "to_cortex_m.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})
#define W(...) ((const uint8_t[]){__VA_ARGS__})

static int32_t fact(pc_graph *g, uint32_t dim, const int32_t *sizes) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, dim, sizes, PC_T_ACTIVATION, NULL, 0, NULL);
}

/* x (input) -> a = x + c -> r = relu(a) (output), on three samples:
 *   c  = { 1, -2, 0.5, 0}
 *   x0 = { 0,  1, 2,    3}  a0 = {1, -1, 2.5,  3}  r0 = {1, 0, 2.5,  3}
 *   x1 = {-1, -1, -1,  -1}  a1 = {0, -3, -0.5, -1} r1 = {0, 0, 0,    0}
 *   x2 = { 4, -4, 0.25, 2}  a2 = {5, -6, 0.75, 2}  r2 = {5, 0, 0.75, 2}
 * ranges: x [-4, 4], a [-6, 5], r [0, 5]; the constant c is not measured. */
static void test_ranges(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float cd[] = {1, -2, 0.5f, 0};
  int32_t c = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(1, 4), PC_T_CONST, cd, sizeof cd, NULL);
  int32_t x = fact(g, 2, IDS(1, 4)), a = fact(g, 2, IDS(1, 4)), r = fact(g, 2, IDS(1, 4));
  int32_t one = pc_graph_int(g, 1);
  CHECK(pc_graph_call(g, "aten::add.out", IDS(x, c, one, a), W(0, 0, 0, 1), 4) == 0);
  CHECK(pc_graph_call(g, "aten::relu.out", IDS(a, r), W(0, 1), 2) == 1);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &r, 1) == PTERA_OK);
  const float x0[] = {0, 1, 2, 3}, x1[] = {-1, -1, -1, -1}, x2[] = {4, -4, 0.25f, 2};
  const float *data[] = {x0, x1, x2};
  const size_t numel[] = {4, 4, 4};
  pc_calibration cal = {3, 1, data, numel};
  pc_range ranges[16];
  CHECK(g->nvalues <= 16);
  CHECK(pc_calibrate(g, &cal, ranges) == PTERA_OK);
  CHECK(ranges[x].seen && ranges[x].min == -4 && ranges[x].max == 4);
  CHECK(ranges[a].seen && ranges[a].min == -6 && ranges[a].max == 5);
  CHECK(ranges[r].seen && ranges[r].min == 0 && ranges[r].max == 5);
  CHECK(!ranges[c].seen && !ranges[one].seen);
  /* The graph is unchanged: calibration only reads it. */
  CHECK(!g->nodes[0].removed && !g->nodes[1].removed && g->values[a].u.t.data == NULL);

  /* A sample of the wrong size names the sample and input. */
  const size_t bad[] = {4, 3, 4};
  pc_calibration cal_bad = {3, 1, data, bad};
  CHECK(pc_calibrate(g, &cal_bad, ranges) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(g->err.msg, "sample 1: input 0 has 3 elements") != NULL);
  pc_calibration none = {0, 1, data, numel};
  CHECK(pc_calibrate(g, &none, ranges) == PTERA_INVALID_ARGUMENT);

  /* Lowering: the add reads a float constant, which has no int8 form. */
  CHECK(pc_calibrate(g, &cal, ranges) == PTERA_OK);
  CHECK(pc_to_cortex_m(g, ranges, NULL) == PTERA_NOT_SUPPORTED);
  CHECK(strstr(g->err.msg, "node 0 ('aten::add.out') has no cortex_m form") != NULL);
  pc_graph_free(g);
}

/* PT2E MinMaxObserver parameters:
 *   [-1, 3]: scale = 4/255; zp = -128 - round(-1 / (4/255)) = -128 - round(-63.75) = -64
 *   [0.5, 2] widens to [0, 2]: scale = 2/255, zp = -128 - 0 = -128
 *   [-2, -1] widens to [-2, 0]: scale = 2/255, zp = -128 - round(-255) = 127
 *   [0, 0]: scale = FLT_EPSILON, zp = -128
 * symmetric: [-2.54, 1] -> 2.54/127 = 0.02; [0, 0] -> FLT_EPSILON. */
static void test_params(void) {
  pc_qparams q = pc_qparams_affine_i8(-1, 3);
  CHECK(q.scale == 4.0f / 255.0f && q.zero_point == -64);
  q = pc_qparams_affine_i8(0.5f, 2);
  CHECK(q.scale == 2.0f / 255.0f && q.zero_point == -128);
  q = pc_qparams_affine_i8(-2, -1);
  CHECK(q.scale == 2.0f / 255.0f && q.zero_point == 127);
  q = pc_qparams_affine_i8(0, 0);
  CHECK(q.scale == 1.1920929e-07f && q.zero_point == -128);
  CHECK(pc_qscale_symmetric_i8(-2.54f, 1) == 2.54f / 127.0f);
  CHECK(pc_qscale_symmetric_i8(0, 0) == 1.1920929e-07f);
  /* q = clamp(round_half_even(x * (1/scale)) + zp): 0.3 / 0.1 -> 3 + 5 = 8;
   * 0.25 * 2 = 0.5 -> 0 (half to even), 0.75 * 2 = 1.5 -> 2; saturation. */
  CHECK(pc_quantize_value(0.3f, 0.1f, 5, -128, 127) == 8);
  CHECK(pc_quantize_value(0.25f, 0.5f, 0, -128, 127) == 0);
  CHECK(pc_quantize_value(0.75f, 0.5f, 0, -128, 127) == 2);
  CHECK(pc_quantize_value(1000, 0.5f, 0, -127, 127) == 127);
  CHECK(pc_quantize_value(-1000, 0.5f, 3, -128, 127) == -128);
}

static const pc_gnode *live(const pc_graph *g, uint32_t i) {
  for (uint32_t k = 0; k < g->nnodes; k++)
    if (!g->nodes[k].removed && i-- == 0) return &g->nodes[k];
  return NULL;
}

/* y = addmm(b, x, Wt) with W = [[0.5, 0.25], [-1.5, 2]] (Wt its transpose),
 * b = [0.5, -0.25], on samples x0 = [1, -1], x1 = [2, 0.5]:
 *   y0 = [0.5 - 0.25 + 0.5, -1.5 - 2 - 0.25] = [0.75, -3.75]
 *   y1 = [1 + 0.125 + 0.5, -3 + 1 - 0.25]    = [1.625, -2.25]
 * x in [-1, 2]: s_x = 3/255, zp_x = -128 - round(-85) = -43;
 * y in [-3.75, 1.625]: s_y = 5.375/255, zp_y = -128 - round(-177.9) = 50;
 * W per tensor: s_w = 2/127; q(W) = [[32, 16], [-95, 127]]
 *   (0.5 * 63.5 = 31.75, 0.25 * 63.5 = 15.875, -1.5 * 63.5 = -95.25);
 * bias = round(b / (s_x * s_w)).
 * Lowered: quantize_per_tensor(x, s_x, -43, -128, 127, 1), quantized_linear
 * (x, W, b, None, 43, 0, 50, [m], [s], 127, -128), dequantize_per_tensor(y, s_y, 50, ...). */
static void test_linear_lowering(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float wt[] = {0.5f, -1.5f, 0.25f, 2}, bd[] = {0.5f, -0.25f};
  int32_t wv = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 2, IDS(2, 2), PC_T_CONST, wt, sizeof wt, NULL);
  int32_t bv = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, IDS(2), PC_T_CONST, bd, sizeof bd, NULL);
  int32_t x = fact(g, 2, IDS(1, 2)), y = fact(g, 2, IDS(1, 2));
  int32_t one = pc_graph_int(g, 1);
  CHECK(pc_graph_call(g, "aten::addmm.out", IDS(bv, x, wv, one, one, y), W(0, 0, 0, 0, 0, 1), 6) == 0);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK && pc_graph_set_outputs(g, &y, 1) == PTERA_OK);
  const float x0[] = {1, -1}, x1[] = {2, 0.5f};
  const float *data[] = {x0, x1};
  const size_t numel[] = {2, 2};
  pc_calibration cal = {2, 1, data, numel};
  pc_range ranges[16];
  CHECK(pc_calibrate(g, &cal, ranges) == PTERA_OK);
  CHECK(ranges[y].min == -3.75f && ranges[y].max == 1.625f);
  pc_cm_stats st = {0};
  CHECK(pc_to_cortex_m(g, ranges, &st) == PTERA_OK);
  CHECK(st.lowered == 1 && st.calls == 3 && st.layouts == 0);
  const pc_gnode *q = live(g, 0), *l = live(g, 1), *d = live(g, 2);
  CHECK(q && l && d && live(g, 3) == NULL);
  if (!q || !l || !d) {
    pc_graph_free(g);
    return;
  }
  CHECK(strcmp(q->op, "cortex_m::quantize_per_tensor.out") == 0 && q->nargs == 7);
  CHECK(strcmp(l->op, "cortex_m::quantized_linear.out") == 0 && l->nargs == 12);
  CHECK(strcmp(d->op, "cortex_m::dequantize_per_tensor.out") == 0 && d->nargs == 7);
  const pc_gvalue *v = g->values;
  float sx = 3.0f / 255.0f, sy = 5.375f / 255.0f, sw = 2.0f / 127.0f;
  CHECK(q->args[0] == x && v[q->args[1]].u.d == sx && v[q->args[2]].u.i == -43);
  CHECK(v[q->args[3]].u.i == -128 && v[q->args[4]].u.i == 127 && v[q->args[5]].u.i == 1);
  CHECK(l->args[0] == q->args[6]);
  const pc_gtensor *qw = &v[l->args[1]].u.t, *qb = &v[l->args[2]].u.t;
  CHECK(qw->dtype == PTERA_DTYPE_CHAR && qw->store == PC_T_CONST && qw->sizes[0] == 2);
  const int8_t want_w[] = {32, 16, -95, 127};
  CHECK(qw->data && memcmp(qw->data, want_w, 4) == 0);
  const int32_t *b32 = (const int32_t *)qb->data;
  CHECK(qb->dtype == PTERA_DTYPE_INT && b32 && b32[0] == (int32_t)nearbyintf(0.5f * (1.0f / (sx * sw))) &&
        b32[1] == (int32_t)nearbyintf(-0.25f * (1.0f / (sx * sw))));
  CHECK(v[l->args[3]].kind == PC_G_NONE);
  CHECK(v[l->args[4]].u.i == 43 && v[l->args[5]].u.i == 0 && v[l->args[6]].u.i == 50);
  CHECK(v[l->args[7]].kind == PC_G_INTS && v[l->args[7]].u.ints.len == 1);
  int64_t m = v[l->args[7]].u.ints.items[0], s = v[l->args[8]].u.ints.items[0];
  double want = (double)sx * sw / sy;
  CHECK(m >= (1 << 30) && fabs(ldexp((double)m, (int)s - 31) / want - 1) < 1e-9);
  CHECK(v[l->args[9]].u.i == 127 && v[l->args[10]].u.i == -128); /* max before min */
  CHECK(d->args[0] == l->args[11] && d->args[6] == y && v[d->args[1]].u.d == sy &&
        v[d->args[2]].u.i == 50);
  pc_graph_free(g);
}

/* An operator with no cortex_m form fails naming the node; so does a ReLU
 * whose producer is not lowered with it. */
static void test_unsupported(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = fact(g, 2, IDS(1, 4)), t = fact(g, 2, IDS(1, 4)), r = fact(g, 2, IDS(1, 4));
  CHECK(pc_graph_call(g, "aten::tanh.out", IDS(x, t), W(0, 1), 2) == 0);
  CHECK(pc_graph_call(g, "aten::relu.out", IDS(x, r), W(0, 1), 2) == 1);
  CHECK(pc_graph_set_inputs(g, &x, 1) == PTERA_OK);
  CHECK(pc_graph_set_outputs(g, IDS(t, r), 2) == PTERA_OK);
  const float x0[] = {0, 1, 2, 3};
  const float *data[] = {x0};
  const size_t numel[] = {4};
  pc_calibration cal = {1, 1, data, numel};
  pc_range ranges[16];
  CHECK(pc_calibrate(g, &cal, ranges) == PTERA_OK);
  CHECK(pc_to_cortex_m(g, ranges, NULL) == PTERA_NOT_SUPPORTED);
  CHECK(strstr(g->err.msg, "node 0 ('aten::tanh.out') has no cortex_m form") != NULL);
  g->nodes[0].removed = true;
  CHECK(pc_calibrate(g, &cal, ranges) == PTERA_OK);
  CHECK(pc_to_cortex_m(g, ranges, NULL) == PTERA_NOT_SUPPORTED);
  CHECK(strstr(g->err.msg, "node 1 ('aten::relu.out')") != NULL);
  pc_graph_free(g);
}

int main(void) {
  test_ranges();
  test_params();
  test_linear_lowering();
  test_unsupported();
  return check_summary("calibrate");
}

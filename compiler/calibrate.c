/* Activation ranges and quantization parameters; see calibrate.h. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "calibrate.h"
#include "eval.h"

static bool is_float_tensor(const pc_gvalue *x) {
  return x->kind == PC_G_TENSOR && x->u.t.dtype == PTERA_DTYPE_FLOAT;
}

static void observe(pc_range *r, const float *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (isnan(x[i])) continue;
    if (!r->seen || x[i] < r->min) r->min = x[i];
    if (!r->seen || x[i] > r->max) r->max = x[i];
    r->seen = true;
  }
}

typedef struct calib_ctx {
  pc_graph *g;
  uint8_t **bufs;
  bool ok;
  int32_t bad; /* a tensor with a dynamic shape */
} calib_ctx;

/* Storage for every non-constant tensor a live call touches. */
static void give_storage(void *ctx, int32_t v, bool written) {
  (void)written;
  calib_ctx *c = ctx;
  pc_gvalue *x = &c->g->values[v];
  if (!c->ok || x->kind != PC_G_TENSOR || x->u.t.store == PC_T_CONST || c->bufs[v]) return;
  if (x->u.t.dynamism != PTERA_SHAPE_STATIC) {
    c->ok = false;
    c->bad = v;
    return;
  }
  size_t nb = pc_gtensor_nbytes(&x->u.t);
  c->bufs[v] = pt_arena_alloc(&c->g->arena, nb ? nb : 1, 16);
  if (!c->bufs[v]) c->ok = false;
  else if (x->u.t.store == PC_T_BUFFER && x->u.t.data) memcpy(c->bufs[v], x->u.t.data, nb);
}

static ptera_status set_inputs(pc_graph *g, const pc_calibration *cal, uint32_t s, uint8_t **bufs,
                               pc_range *ranges) {
  for (uint32_t i = 0; i < g->ninputs; i++) {
    int32_t v = g->inputs[i];
    const pc_gvalue *x = &g->values[v];
    if (!is_float_tensor(x))
      return pt_fail(&g->err, PTERA_NOT_SUPPORTED,
                     "calibration: input %u of method '%s' is not a float tensor", i, g->name);
    size_t numel = pc_gtensor_nbytes(&x->u.t) / sizeof(float);
    if (cal->numel[s * cal->ninputs + i] != numel)
      return pt_fail(&g->err, PTERA_INVALID_ARGUMENT,
                     "calibration sample %u: input %u has %zu elements; method '%s' takes %zu", s,
                     i, cal->numel[s * cal->ninputs + i], g->name, numel);
    if (!bufs[v]) continue; /* no call reads it */
    memcpy(bufs[v], cal->data[s * cal->ninputs + i], numel * sizeof(float));
    observe(&ranges[v], (const float *)bufs[v], numel);
  }
  return PTERA_OK;
}

/* Runs every live call once on the current inputs. */
static ptera_status run_sample(pc_graph *g, uint32_t s, uint8_t **bufs, ptera_value **vmap,
                               pc_range *ranges) {
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->removed || n->kind != PC_N_CALL) continue;
    if (n->delegate)
      return pt_fail(&g->err, PTERA_NOT_SUPPORTED,
                     "calibration: node %u of method '%s' is a delegate call", k, g->name);
    pc_eval e;
    ptera_status st = pc_eval_call(g, (int32_t)k, vmap, bufs, &e);
    if (st == PTERA_OK && !e.ran)
      st = pt_fail(&g->err, PTERA_INVALID_ARGUMENT,
                   "calibration sample %u: node %u ('%s') of method '%s' failed: %s", s, k, n->op,
                   g->name, e.kerr.msg[0] ? e.kerr.msg : ptera_status_name(e.kerr.status));
    for (uint32_t i = 0; st == PTERA_OK && i < e.nouts; i++)
      if (is_float_tensor(&g->values[e.out_ids[i]]))
        observe(&ranges[e.out_ids[i]], e.outs[i]->data, e.outs[i]->numel);
    pc_eval_release(&e);
    if (st != PTERA_OK) return st;
  }
  return PTERA_OK;
}

ptera_status pc_calibrate(pc_graph *g, const pc_calibration *cal, pc_range *ranges) {
  memset(ranges, 0, g->nvalues * sizeof *ranges);
  if (!cal || cal->nsamples == 0)
    return pt_fail(&g->err, PTERA_INVALID_ARGUMENT, "calibration: no samples for method '%s'",
                   g->name);
  if (cal->ninputs != g->ninputs)
    return pt_fail(&g->err, PTERA_INVALID_ARGUMENT,
                   "calibration: each sample has %u inputs; method '%s' takes %u", cal->ninputs,
                   g->name, g->ninputs);
  size_t nv = g->nvalues ? g->nvalues : 1;
  uint8_t **bufs = pt_calloc(g->allocator, nv, sizeof *bufs, 0);
  ptera_value **vmap = pt_calloc(g->allocator, nv, sizeof *vmap, 0);
  ptera_status st = PTERA_OK;
  if (!bufs || !vmap) {
    st = pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory calibrating '%s'",
                 g->name);
    goto done;
  }
  calib_ctx c = {g, bufs, true, -1};
  for (uint32_t k = 0; k < g->nnodes && c.ok; k++)
    if (!g->nodes[k].removed && g->nodes[k].kind == PC_N_CALL)
      pc_graph_visit_args(g, &g->nodes[k], give_storage, &c);
  if (!c.ok) {
    st = c.bad >= 0 ? pt_fail(&g->err, PTERA_NOT_SUPPORTED,
                              "calibration: value %d of method '%s' has a dynamic shape", c.bad,
                              g->name)
                    : pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                              "out of memory for the activations of '%s'", g->name);
    goto done;
  }
  for (uint32_t s = 0; s < cal->nsamples && st == PTERA_OK; s++) {
    st = set_inputs(g, cal, s, bufs, ranges);
    if (st == PTERA_OK) st = run_sample(g, s, bufs, vmap, ranges);
  }
done:
  pt_free(g->allocator, bufs);
  pt_free(g->allocator, vmap);
  return st;
}

/* float32 round half to even (the FPU's default mode). */
static float round_even(float x) { return nearbyintf(x); }

pc_qparams pc_qparams_affine_i8(float min, float max) {
  float lo = min < 0.0f ? min : 0.0f, hi = max > 0.0f ? max : 0.0f;
  float scale = (hi - lo) / 255.0f;
  if (!(scale >= FLT_EPSILON)) scale = FLT_EPSILON;
  float zp = -128.0f - round_even(lo / scale);
  pc_qparams q = {scale, (int32_t)(zp < -128.0f ? -128.0f : zp > 127.0f ? 127.0f : zp)};
  return q;
}

float pc_qscale_symmetric_i8(float min, float max) {
  float lo = min < 0.0f ? -min : 0.0f, hi = max > 0.0f ? max : 0.0f;
  float scale = (lo > hi ? lo : hi) / 127.0f;
  return scale >= FLT_EPSILON ? scale : FLT_EPSILON;
}

int64_t pc_quantize_value(float x, float scale, int32_t zero_point, int64_t qmin, int64_t qmax) {
  float inv = (float)(1.0 / (double)scale);
  float r = round_even(x * inv);
  if (!(r == r)) return zero_point; /* NaN */
  double q = (double)r + zero_point;
  return q < (double)qmin ? qmin : q > (double)qmax ? qmax : (int64_t)q;
}

/* The Cortex-M lowering's driver and shared helpers; see to_cortex_m.h.
 * New calls are appended after the method's nodes (in the order of the
 * calls they replace, so the schedule stays topological) and every lowered
 * node is marked removed: input quantization first, the lowered calls, then
 * output dequantization. */
#include <math.h>
#include <string.h>

#include "to_cortex_m_impl.h"

#define CHAR_CODE 1 /* ScalarType int8 (CORTEX_M.md 1) */

ptera_status pc_cm_fail(pc_cm_ctx *c, uint32_t k, const char *why) {
  return pt_fail(&c->g->err, PTERA_NOT_SUPPORTED,
                 "node %u ('%s') has no cortex_m form: %s", k, c->g->nodes[k].op, why);
}

ptera_status pc_cm_oom(pc_cm_ctx *c) {
  return pt_fail(&c->g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory lowering '%s'",
                 c->g->name);
}

int32_t pc_cm_int(pc_cm_ctx *c, int64_t v) { return pc_graph_int(c->g, v); }

int32_t pc_cm_ints(pc_cm_ctx *c, const int64_t *v, uint32_t n) { return pc_graph_ints(c->g, v, n); }

int32_t pc_cm_const(pc_cm_ctx *c, int dtype, uint32_t dim, const int32_t *sizes, const void *data,
                    size_t nbytes) {
  return pc_graph_tensor(c->g, dtype, dim, sizes, PC_T_CONST, data, nbytes, NULL);
}

int32_t pc_cm_scratch(pc_cm_ctx *c, size_t n) {
  int32_t size = (int32_t)n;
  return pc_graph_tensor(c->g, PTERA_DTYPE_BYTE, 1, &size, PC_T_ACTIVATION, NULL, 0, NULL);
}

/* The layout rule: channels-last for a 4-D tensor unless C == 1 or H == W == 1. */
static bool wants_channels_last(const pc_gtensor *t) {
  return t->dim == 4 && t->sizes[1] != 1 && !(t->sizes[2] == 1 && t->sizes[3] == 1);
}

static bool is_channels_last(const pc_gtensor *t) {
  return t->dim == 4 && t->dim_order[1] == 2 && t->dim_order[2] == 3 && t->dim_order[3] == 1;
}

static void set_channels_last(pc_gtensor *t) {
  static const uint8_t cl[4] = {0, 2, 3, 1};
  memcpy(t->dim_order, cl, sizeof cl);
}

/* A fresh int8 activation shaped like value like. */
static int32_t new_char(pc_cm_ctx *c, int32_t like, bool channels_last) {
  pc_gtensor t = c->g->values[like].u.t;
  int32_t id = pc_graph_tensor(c->g, PTERA_DTYPE_CHAR, t.dim, t.sizes, PC_T_ACTIVATION, NULL, 0,
                               NULL);
  if (id >= 0 && channels_last) set_channels_last(&c->g->values[id].u.t);
  return id;
}

int32_t pc_cm_new_act(pc_cm_ctx *c, int32_t fv, pc_qparams qp) {
  int32_t id = new_char(c, fv, wants_channels_last(&c->g->values[fv].u.t));
  if (id < 0) return -1;
  c->q[fv] = id;
  c->qp[fv] = qp;
  return id;
}

ptera_status pc_cm_emit(pc_cm_ctx *c, const char *op, const int32_t *args, uint32_t n) {
  uint8_t writes[16];
  for (uint32_t i = 0; i < n; i++) {
    if (args[i] < 0) return pc_cm_oom(c); /* a value that could not be made */
    writes[i] = i + 1 == n;
  }
  if (pc_graph_call(c->g, op, args, writes, n) < 0) return pc_cm_oom(c);
  c->stats.calls++;
  return PTERA_OK;
}

/* _clone_dim_order(from, non_blocking=False, dim_order, out=to). */
static int32_t convert(pc_cm_ctx *c, int32_t from, bool channels_last) {
  int32_t to = new_char(c, from, channels_last);
  int64_t order[4] = {0, 1, 2, 3};
  if (channels_last) order[1] = 2, order[2] = 3, order[3] = 1;
  int32_t args[4] = {from, pc_graph_bool(c->g, false), pc_cm_ints(c, order, 4), to};
  if (to < 0 || pc_cm_emit(c, "dim_order_ops::_clone_dim_order.out", args, 4) != PTERA_OK)
    return -1;
  c->stats.layouts++;
  return to;
}

int32_t pc_cm_input(pc_cm_ctx *c, uint32_t k, int32_t fv, bool channels_last) {
  int32_t q = (uint32_t)fv < c->nvalues0 ? c->q[fv] : -1;
  if (q < 0) {
    pc_cm_fail(c, k, "an input is not an int8 activation (it is no method input and no lowered "
                     "call writes it)");
    return -1;
  }
  const pc_gtensor *t = &c->g->values[q].u.t;
  if (t->dim != 4 || !wants_channels_last(t) || is_channels_last(t) == channels_last) return q;
  int32_t r = convert(c, q, channels_last);
  if (r < 0) pc_cm_oom(c);
  return r;
}

ptera_status pc_cm_measured(pc_cm_ctx *c, uint32_t k, int32_t fv, pc_qparams *qp) {
  if ((uint32_t)fv >= c->nvalues0 || !c->ranges[fv].seen)
    return pt_fail(&c->g->err, PTERA_INVALID_ARGUMENT,
                   "node %u ('%s'): value %d has no calibrated range", k, c->g->nodes[k].op, fv);
  *qp = pc_qparams_affine_i8(c->ranges[fv].min, c->ranges[fv].max);
  return PTERA_OK;
}

ptera_status pc_cm_multiplier(pc_cm_ctx *c, uint32_t k, double scale, int32_t *mult,
                              int32_t *shift) {
  *mult = 0, *shift = 0;
  if (scale == 0.0) return PTERA_OK;
  int e = 0;
  double m = frexp(scale, &e);
  double q = nearbyint(m * 2147483648.0); /* round half to even, as Python's round */
  if (q == 2147483648.0) q = 1073741824.0, e++;
  if (!(scale > 0.0) || e < -31 || e > 30)
    return pt_fail(&c->g->err, PTERA_NOT_SUPPORTED,
                   "node %u ('%s'): requantization scale %g is outside CMSIS-NN's range", k,
                   c->g->nodes[k].op, scale);
  *mult = (int32_t)q, *shift = e;
  return PTERA_OK;
}

int32_t pc_cm_fuse_relu(pc_cm_ctx *c, int32_t out, int32_t *final) {
  *final = out;
  if (c->readers[out] != 1 || c->is_output[out]) return -1;
  int32_t r = c->reader[out];
  const pc_gnode *n = &c->g->nodes[r];
  if (strcmp(n->op, "aten::relu.out") != 0 || n->nargs != 2 || n->args[0] != out) return -1;
  c->fused[r] = 1;
  *final = n->args[1];
  return r;
}

typedef struct count_ctx {
  pc_cm_ctx *c;
  int32_t node;
} count_ctx;

static void count_reader(void *ctx, int32_t v, bool written) {
  count_ctx *r = ctx;
  if (written || r->c->reader[v] == r->node) return;
  r->c->readers[v]++;
  r->c->reader[v] = r->node;
}

static ptera_status quantize_inputs(pc_cm_ctx *c) {
  pc_graph *g = c->g;
  for (uint32_t i = 0; i < g->ninputs; i++) {
    int32_t v = g->inputs[i];
    if (g->values[v].kind != PC_G_TENSOR || g->values[v].u.t.dtype != PTERA_DTYPE_FLOAT ||
        !c->ranges[v].seen)
      return pt_fail(&g->err, PTERA_NOT_SUPPORTED,
                     "input %u of '%s' is not a calibrated float tensor", i, g->name);
    pc_qparams qp = pc_qparams_affine_i8(c->ranges[v].min, c->ranges[v].max);
    /* quantize_per_tensor keeps memory order: quantize NCHW, then convert. */
    int32_t flat = new_char(c, v, false);
    int32_t args[7] = {v, pc_graph_double(g, qp.scale), pc_cm_int(c, qp.zero_point),
                       pc_cm_int(c, -128), pc_cm_int(c, 127), pc_cm_int(c, CHAR_CODE), flat};
    ptera_status st = pc_cm_emit(c, "cortex_m::quantize_per_tensor.out", args, 7);
    if (st != PTERA_OK) return st;
    c->q[v] = flat;
    c->qp[v] = qp;
    if (wants_channels_last(&g->values[v].u.t) && (c->q[v] = convert(c, flat, true)) < 0)
      return pc_cm_oom(c);
  }
  return PTERA_OK;
}

static ptera_status dequantize_outputs(pc_cm_ctx *c) {
  pc_graph *g = c->g;
  for (uint32_t i = 0; i < g->noutputs; i++) {
    int32_t v = g->outputs[i];
    if (g->values[v].kind != PC_G_TENSOR || (uint32_t)v >= c->nvalues0 || c->q[v] < 0)
      return pt_fail(&g->err, PTERA_NOT_SUPPORTED,
                     "output %u of '%s' is not a float tensor the lowering quantized", i, g->name);
    bool cl = is_channels_last(&g->values[v].u.t);
    int32_t q = c->q[v];
    const pc_gtensor *t = &g->values[q].u.t;
    if (t->dim == 4 && wants_channels_last(t) && is_channels_last(t) != cl &&
        (q = convert(c, q, cl)) < 0)
      return pc_cm_oom(c);
    pc_qparams qp = c->qp[v];
    int32_t args[7] = {q, pc_graph_double(g, qp.scale), pc_cm_int(c, qp.zero_point),
                       pc_cm_int(c, -128), pc_cm_int(c, 127), pc_cm_int(c, CHAR_CODE), v};
    ptera_status st = pc_cm_emit(c, "cortex_m::dequantize_per_tensor.out", args, 7);
    if (st != PTERA_OK) return st;
  }
  return PTERA_OK;
}

static ptera_status lower(pc_cm_ctx *c) {
  pc_graph *g = c->g;
  for (uint32_t k = 0; k < c->nnodes0; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->removed || n->kind != PC_N_CALL) continue;
    count_ctx r = {c, (int32_t)k};
    pc_graph_visit_args(g, n, count_reader, &r);
  }
  for (uint32_t k = 0; k < c->nnodes0; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->kind != PC_N_CALL) g->nodes[k].removed = true; /* region markers go */
    if (n->removed) continue;
    if (n->delegate) return pc_cm_fail(c, k, "it is a delegate call");
    if (!c->fused[k]) {
      ptera_status st = pc_cm_lower_call(c, k);
      if (st != PTERA_OK) return st;
    }
    g->nodes[k].removed = true;
    c->stats.lowered++;
  }
  return PTERA_OK;
}

ptera_status pc_to_cortex_m(pc_graph *g, const pc_range *ranges, pc_cm_stats *stats) {
  pc_cm_ctx c;
  memset(&c, 0, sizeof c);
  c.g = g;
  c.ranges = ranges;
  c.nvalues0 = g->nvalues;
  c.nnodes0 = g->nnodes;
  size_t nv = g->nvalues ? g->nvalues : 1, nn = g->nnodes ? g->nnodes : 1;
  c.q = pt_calloc(g->allocator, nv, sizeof *c.q, 0);
  c.qp = pt_calloc(g->allocator, nv, sizeof *c.qp, 0);
  c.readers = pt_calloc(g->allocator, nv, sizeof *c.readers, 0);
  c.reader = pt_calloc(g->allocator, nv, sizeof *c.reader, 0);
  c.is_output = pt_calloc(g->allocator, nv, 1, 0);
  c.fused = pt_calloc(g->allocator, nn, 1, 0);
  ptera_status st = PTERA_OK;
  if (!c.q || !c.qp || !c.readers || !c.reader || !c.is_output || !c.fused) st = pc_cm_oom(&c);
  for (uint32_t v = 0; st == PTERA_OK && v < g->nvalues; v++) c.q[v] = c.reader[v] = -1;
  for (uint32_t i = 0; st == PTERA_OK && i < g->noutputs; i++) c.is_output[g->outputs[i]] = 1;
  if (st == PTERA_OK) st = quantize_inputs(&c);
  if (st == PTERA_OK) st = lower(&c);
  if (st == PTERA_OK) st = dequantize_outputs(&c);
  if (st == PTERA_OK && stats) {
    stats->lowered += c.stats.lowered;
    stats->calls += c.stats.calls;
    stats->layouts += c.stats.layouts;
  }
  pt_free(g->allocator, c.q);
  pt_free(g->allocator, c.qp);
  pt_free(g->allocator, c.readers);
  pt_free(g->allocator, c.reader);
  pt_free(g->allocator, c.is_output);
  pt_free(g->allocator, c.fused);
  return st;
}

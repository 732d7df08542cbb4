/* A method's XNNPACK partitions replaced by DelegateCalls (to_xnnpack.h):
 *
 *   x -> conv -> relu -> [cpu op] -> linear -> out
 *   ==> x -> XnnpackBackend(x) -> [cpu op] -> XnnpackBackend(...) -> out
 *
 * The node list is rebuilt in the partitioner's schedule: each CPU call
 * as it was, each partition as one delegate CALL whose arguments are the
 * inputs its blob reads and then its outputs (the blob's external ids in the
 * same order). Region markers and removed nodes are dropped. With several
 * partitions, a first build learns which values can cross between them in
 * NHWC (mark_handoffs), and the partitions are built again. */
#include "diag.h"
#include "quant.h"
#include "to_xnnpack.h"

static ptera_status oom(pc_graph *g) {
  return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory in '%s'", g->name);
}

static ptera_status delegate_node(pc_xnn_ctx *c, const pc_part *p, pc_gnode *out) {
  pc_graph *g = c->g;
  uint32_t cap = p->ninputs + p->noutputs, nin = 0;
  int32_t *args = pt_arena_array(&g->arena, cap ? cap : 1, sizeof *args, 4);
  uint8_t *writes = pt_arena_alloc(&g->arena, cap ? cap : 1, 1);
  if (!args || !writes) return oom(g);
  const uint8_t *blob = NULL;
  size_t size = 0;
  ptera_status st = pc_xnn_build(c, p, &blob, &size, args, &nin);
  if (st != PTERA_OK) return st;
  uint32_t n = nin + p->noutputs;
  for (uint32_t i = 0; i < n; i++) writes[i] = i >= nin;
  memset(out, 0, sizeof *out);
  out->kind = PC_N_CALL;
  out->op = PC_XNN_BACKEND_ID;
  out->args = args;
  out->writes = writes;
  out->nargs = n;
  out->delegate = true;
  out->blob = blob;
  out->blob_size = size;
  return PTERA_OK;
}

/* Marks the values that cross between partitions in NHWC (to_xnnpack.h):
 * 4-D, written in NHWC by a partition, read by no CPU call, no method
 * output or alias, and wanted in NHWC by a partition that reads it. Their
 * tensors get dim order 0,2,3,1. Returns how many. */
static uint32_t mark_handoffs(pc_xnn_ctx *c, const pc_partitioning *P) {
  pc_graph *g = c->g;
  uint8_t *cpu_read = c->handoff; /* scratch first: read by a CPU call */
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *n = &g->nodes[k];
    if (n->removed || n->kind != PC_N_CALL || P->part[k] >= 0) continue;
    for (uint32_t a = 0; a < n->nargs; a++) {
      const pc_gvalue *x = &g->values[n->args[a]];
      cpu_read[n->args[a]] = 1;
      if (x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS)
        for (uint32_t i = 0; i < x->u.tensors.len; i++)
          if (x->u.tensors.ids[i] >= 0) cpu_read[x->u.tensors.ids[i]] = 1;
    }
  }
  uint32_t n = 0;
  for (uint32_t v = 0; v < g->nvalues; v++) {
    bool h = !cpu_read[v] && c->native[v] == 1 && c->wants_nhwc[v] && !c->m.is_output[v] &&
             g->values[v].kind == PC_G_TENSOR && g->values[v].u.t.dim == 4 &&
             c->m.class_size[pc_graph_alias_root(g, v)] == 1;
    c->handoff[v] = h;
    if (!h) continue;
    static const uint8_t nhwc[4] = {0, 2, 3, 1};
    memcpy(g->values[v].u.t.dim_order, nhwc, sizeof nhwc);
    n++;
  }
  return n;
}

/* Before a dynamic quantization (to_xnnpack.h): warns about each linear
 * layer left unquantized or quantized otherwise than asked, and fails on a
 * linear call whose weight is not a constant. Node numbers are the .ptg's. */
static ptera_status quant_scan(pc_xnn_ctx *c) {
  pc_graph *g = c->g;
  for (uint32_t k = 0; k < g->nnodes; k++) {
    const pc_gnode *n = &g->nodes[k];
    pc_linear l;
    if (!pc_linear_of(g, n, &l) || !pc_qscope_in(g->qscope, n)) continue;
    bool go = false;
    ptera_status st = pc_q_layer_check(g, k, &l, &go);
    if (st != PTERA_OK) return st;
    if (!go) continue;
    char buf[32];
    const char *wn = pc_q_tensor_name(g, l.w, buf, sizeof buf);
    if (!pc_xnn_supported(c, g, k))
      pc_diag_warn(g->diag, "method '%s': node %u (%s, weight '%s') left unquantized: the XNNPACK "
                   "delegate cannot run it, so it stays in fp32 on the CPU", g->name, k, n->op, wn);
    else if (c->quantize == PC_XNN_QUANT_8DA4W && l.ic % c->group_size)
      pc_diag_warn(g->diag, "method '%s': node %u (%s, weight '%s'): group size %u does not divide its "
                   "%u input features; quantized 8da8w (int8 per channel) instead", g->name, k, n->op,
                   wn, c->group_size, l.ic);
  }
  return PTERA_OK;
}

ptera_status pc_to_xnnpack(pc_graph *g, pc_xnn_quant quantize, uint32_t group_size,
                           const pc_range *ranges, pc_xnn_stats *stats) {
  if (quantize == PC_XNN_QUANT_8DA4W &&
      (group_size == 0 || group_size % PC_XNN_QB4_GROUP_MULTIPLE))
    return pt_fail(&g->err, PTERA_INVALID_ARGUMENT,
                   "8da4w group size %u: XNNPACK's blockwise 4-bit weights need a positive multiple "
                   "of %d", group_size, PC_XNN_QB4_GROUP_MULTIPLE);
  if (quantize == PC_XNN_QUANT_INT8_STATIC && !ranges)
    return pt_fail(&g->err, PTERA_INVALID_ARGUMENT,
                   "int8-static quantization needs calibrated ranges (calibration samples)");
  pc_xnn_ctx c;
  ptera_status st = pc_xnn_ctx_init(&c, g);
  if (st != PTERA_OK) return st;
  /* weight-only schemes are rewritten on the graph before (passes.h) */
  c.quantize = quantize == PC_XNN_QUANT_8DA8W || quantize == PC_XNN_QUANT_8DA4W ||
                       quantize == PC_XNN_QUANT_INT8_STATIC
                   ? quantize
                   : PC_XNN_QUANT_NONE;
  c.group_size = group_size;
  c.ranges = ranges;
  c.nranges = ranges ? g->nvalues : 0;
  if (c.quantize != PC_XNN_QUANT_NONE) st = quant_scan(&c);
  if (st != PTERA_OK) {
    pc_xnn_ctx_free(&c);
    return st;
  }
  pc_partitioning P;
  memset(&P, 0, sizeof P);
  st = pc_partition(g, pc_xnn_supported, &c, NULL, &P);
  pc_gnode *nodes = NULL;
  if (st == PTERA_OK) {
    nodes = pt_calloc(g->allocator, P.norder ? P.norder : 1, sizeof *nodes, 0);
    if (!nodes) st = oom(g);
  }
  /* A first build of every partition learns the layouts; with values to
   * hand over in NHWC, the partitions are built again. */
  for (uint32_t i = 0; P.nparts > 1 && i < P.nparts && st == PTERA_OK; i++) {
    pc_gnode scratch;
    st = delegate_node(&c, &P.parts[i], &scratch);
  }
  uint32_t handoffs = st == PTERA_OK && P.nparts > 1 ? mark_handoffs(&c, &P) : 0;
  c.quantized = c.quantized_4bit = 0;
  uint32_t delegated = 0, cpu = 0;
  for (uint32_t i = 0; i < P.norder && st == PTERA_OK; i++) {
    pc_unit u = P.order[i];
    if (u >= 0) {
      nodes[i] = g->nodes[u];
      cpu++;
      continue;
    }
    const pc_part *p = &P.parts[-1 - u];
    st = delegate_node(&c, p, &nodes[i]);
    delegated += p->nnodes;
  }
  if (st == PTERA_OK) {
    pt_free(g->allocator, g->nodes);
    g->nodes = nodes;
    g->nnodes = g->nodes_cap = P.norder;
    nodes = NULL;
    if (stats) {
      stats->nhwc_handoffs += handoffs;
      stats->quantized += c.quantized;
      stats->quantized_4bit += c.quantized_4bit;
      stats->partitions += P.nparts;
      stats->delegated_nodes += delegated;
      stats->cpu_nodes += cpu;
    }
  }
  pt_free(g->allocator, nodes);
  pc_partitioning_free(g, &P);
  pc_xnn_ctx_free(&c);
  return st;
}

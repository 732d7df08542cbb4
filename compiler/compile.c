/* The compiler driver; see compile.h. */
#include <string.h>

#include "compile.h"

static uint32_t live_calls(const pc_graph *g) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < g->nnodes; i++)
    if (g->nodes[i].kind == PC_N_CALL && !g->nodes[i].removed) n++;
  return n;
}

typedef ptera_status (*pc_pass_fn)(pc_graph *g, pc_pass_stats *stats);

static ptera_status run_pass(pc_graph *g, pc_pass_fn fn, const char *what, pc_pass_stats *stats,
                             pt_err *e) {
  pt_err_clear(&g->err);
  ptera_status st = fn(g, stats);
  if (st == PTERA_OK) return PTERA_OK;
  return pt_fail(e, st, "method '%s': %s: %s", g->name, what,
                 g->err.msg[0] ? g->err.msg : ptera_status_name(st));
}

/* Every live call of g is in the target op set. Node indices are those of
 * the .ptg (passes never renumber). */
static ptera_status check_opset(const pc_graph *g, pc_opset set, pc_backend backend, pt_err *e) {
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pc_gnode *n = &g->nodes[i];
    if (n->kind != PC_N_CALL || n->removed || n->delegate || pc_opset_contains(set, n->op))
      continue;
    /* ExecuTorch's cortex_m kernel library registers these. */
    if (backend == PC_BACKEND_CORTEX_M && strncmp(n->op, "cortex_m::", 10) == 0) continue;
    const char *where = pc_opset_contains(PC_OPSET_EXECUTORCH_OPTIMIZED, n->op)
                            ? "it is in op set 'executorch-optimized'"
                        : pc_opset_contains(PC_OPSET_PTERA, n->op) ? "it is in op set 'ptera' only"
                                                                   : "no kernel registers it";
    return pt_fail(e, PTERA_OPERATOR_MISSING,
                   "method '%s': node %u calls '%s', which is not in op set '%s' (%s)", g->name,
                   i, n->op, pc_opset_name(set), where);
  }
  return PTERA_OK;
}

/* g's activation ranges on the samples (calibrate.h) into *ranges, which
 * the caller frees (also on failure; g->err says why). */
static ptera_status calibrated(pc_graph *g, const pc_compile_options *o, pc_range **ranges) {
  *ranges = pt_calloc(g->allocator, g->nvalues ? g->nvalues : 1, sizeof **ranges, 0);
  return *ranges ? pc_calibrate(g, o->calibration, *ranges)
                 : pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
}

/* Calibrates g on the samples, then lowers it to cortex_m:: calls. */
static ptera_status to_cortex_m(pc_graph *g, const pc_compile_options *o, pc_method_stats *s,
                                pt_err *e) {
  pt_err_clear(&g->err);
  pc_range *ranges;
  ptera_status st = calibrated(g, o, &ranges);
  if (st == PTERA_OK) st = pc_to_cortex_m(g, ranges, &s->cm);
  pt_free(g->allocator, ranges);
  if (st != PTERA_OK)
    st = pt_fail(e, st, "method '%s': lowering to cortex_m: %s", g->name,
                 g->err.msg[0] ? g->err.msg : ptera_status_name(st));
  return st;
}

static ptera_status run_passes(pc_graph *g, const pc_compile_options *o, pc_method_stats *s,
                               pt_err *e) {
  ptera_status st = PTERA_OK;
  s->nodes_before = live_calls(g);
  /* Weights in a .ptd under their names can be swapped after compiling. */
  g->named_consts_replaceable = o->external_weights && o->weight_keys == PC_WEIGHT_KEYS_FQN;
  g->opset = o->opset;
  if (!o->no_fold_bn) st = run_pass(g, pc_fold_batch_norm, "batch norm folding", &s->passes, e);
  if (st == PTERA_OK && !o->no_fuse)
    st = run_pass(g, pc_fuse_linear, "linear fusion", &s->passes, e);
  if (st == PTERA_OK && !o->no_constprop)
    st = run_pass(g, pc_constprop, "constant propagation", &s->passes, e);
  if (st == PTERA_OK && !o->no_dedup)
    st = run_pass(g, pc_dedup_constants, "constant deduplication", &s->passes, e);
  if (st == PTERA_OK && !o->no_dce)
    st = run_pass(g, pc_dce, "dead-code elimination", &s->passes, e);
  uint32_t gs = o->group_size ? o->group_size : 32;
  if (st == PTERA_OK &&
      (o->quantize == PC_XNN_QUANT_INT8_WEIGHT || o->quantize == PC_XNN_QUANT_INT4_WEIGHT)) {
    pt_err_clear(&g->err);
    st = pc_quantize_weights(g, o->quantize == PC_XNN_QUANT_INT8_WEIGHT ? 8 : 4, gs, &s->passes);
    if (st != PTERA_OK)
      st = pt_fail(e, st, "method '%s': weight-only quantization: %s", g->name,
                   g->err.msg[0] ? g->err.msg : ptera_status_name(st));
  }
  if (st == PTERA_OK && o->backend == PC_BACKEND_XNNPACK) {
    pt_err_clear(&g->err);
    pc_range *ranges = NULL;
    if (o->quantize == PC_XNN_QUANT_INT8_STATIC) st = calibrated(g, o, &ranges);
    if (st == PTERA_OK) st = pc_to_xnnpack(g, o->quantize, gs, ranges, &s->xnn);
    pt_free(g->allocator, ranges);
    if (st != PTERA_OK)
      st = pt_fail(e, st, "method '%s': lowering to XNNPACK: %s", g->name,
                   g->err.msg[0] ? g->err.msg : ptera_status_name(st));
  }
  if (st == PTERA_OK && o->backend == PC_BACKEND_CORTEX_M) st = to_cortex_m(g, o, s, e);
  if (st == PTERA_OK && !o->no_views)
    st = run_pass(g, pc_elide_views, "view elision", &s->passes, e);
  s->nodes_after = live_calls(g);
  if (st == PTERA_OK) st = check_opset(g, o->opset, o->backend, e);
  return st;
}

static ptera_status init_stats(const pc_module *m, pc_compile_result *out, pt_err *e) {
  uint32_t n = m->nmethods;
  out->methods = pt_calloc(out->allocator, n ? n : 1, sizeof *out->methods, 0);
  if (!out->methods) return pt_fail(e, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  out->nmethods = n;
  for (uint32_t i = 0; i < n; i++) {
    const char *name = m->methods[i] && m->methods[i]->name ? m->methods[i]->name : "";
    size_t len = strlen(name);
    out->methods[i].name = pt_alloc(out->allocator, len + 1, 1);
    if (!out->methods[i].name) return pt_fail(e, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
    memcpy(out->methods[i].name, name, len + 1);
  }
  return PTERA_OK;
}

ptera_status pc_compile(pc_module *m, const pc_compile_options *options, pc_compile_result *out,
                        pt_err *e) {
  static const pc_compile_options defaults = {.allocator = NULL,
                                              .weight_keys = PC_WEIGHT_KEYS_FQN};
  const pc_compile_options *o = options ? options : &defaults;
  memset(out, 0, sizeof *out);
  out->allocator = o->allocator;
  if (!m || (m->nmethods && !m->methods))
    return pt_fail(e, PTERA_INVALID_ARGUMENT, "no module to compile");
  ptera_status st = init_stats(m, out, e);
  if (st == PTERA_OK && (o->quantize == PC_XNN_QUANT_8DA8W || o->quantize == PC_XNN_QUANT_8DA4W) &&
      o->backend != PC_BACKEND_XNNPACK)
    st = pt_fail(e, PTERA_INVALID_ARGUMENT, "dynamic quantization (8da8w, 8da4w) needs the XNNPACK backend");
  if (st == PTERA_OK && o->quantize == PC_XNN_QUANT_INT8_STATIC && o->backend != PC_BACKEND_XNNPACK)
    st = pt_fail(e, PTERA_INVALID_ARGUMENT,
                 "int8-static quantization is the XNNPACK backend's (Cortex-M quantizes so always)");
  if (st == PTERA_OK && pc_qscope_any(&o->scope) &&
      (o->quantize == PC_XNN_QUANT_NONE || o->backend == PC_BACKEND_CORTEX_M))
    st = pt_fail(e, PTERA_INVALID_ARGUMENT,
                 "a quantization scope or skip list needs a quantization to scope (8da8w, 8da4w, "
                 "int8-static, int8-weight, int4-weight; the Cortex-M lowering quantizes every call)");
  if (st == PTERA_OK) st = pc_qscope_check(&o->scope, m->methods, m->nmethods, e);
  pc_diag diag;
  memset(&diag, 0, sizeof diag);
  diag.allocator = o->allocator;
  for (uint32_t i = 0; i < m->nmethods && st == PTERA_OK; i++) {
    if (!m->methods[i]) {
      st = pt_fail(e, PTERA_INVALID_ARGUMENT, "method %u is missing", i);
    } else {
      m->methods[i]->diag = &diag;
      m->methods[i]->qscope = &o->scope;
      st = run_passes(m->methods[i], o, &out->methods[i], e);
      m->methods[i]->diag = NULL;
      m->methods[i]->qscope = NULL;
    }
  }
  out->warnings = diag.text;
  out->nwarnings = diag.count;
  pc_lower_result lr;
  memset(&lr, 0, sizeof lr);
  if (st == PTERA_OK) {
    pc_lower_options lo = {o->allocator, o->external_weights, o->weight_keys, 0};
    st = pc_lower(m->methods, m->nmethods, &lo, &lr, e);
  }
  pc_emit_options eo = {o->allocator, 0, 0};
  if (st == PTERA_OK) {
    for (uint32_t i = 0; i < m->nmethods; i++) out->methods[i].plan = lr.plans[i];
    st = pc_emit_pte(&lr.program, &eo, &out->pte, &out->pte_size, e);
  }
  if (st == PTERA_OK && o->external_weights) {
    out->nexternal = lr.nptd;
    st = pc_emit_ptd(lr.ptd, lr.nptd, &eo, &out->ptd, &out->ptd_size, e);
  }
  pc_lower_result_free(&lr);
  if (st != PTERA_OK) pc_compile_result_free(out);
  return st;
}

void pc_compile_result_free(pc_compile_result *r) {
  if (!r) return;
  pt_free(r->allocator, r->pte);
  pt_free(r->allocator, r->ptd);
  for (uint32_t i = 0; r->methods && i < r->nmethods; i++) pt_free(r->allocator, r->methods[i].name);
  pt_free(r->allocator, r->methods);
  pt_free(r->allocator, r->warnings);
  const ptera_allocator *a = r->allocator;
  memset(r, 0, sizeof *r);
  r->allocator = a;
}

/* XnnpackBackend: init builds the runtime graph (values, constants, shapes,
 * buffers); execute binds the delegate's tensors, re-propagates shapes,
 * resizes the outputs and runs the nodes (docs/XNNPACK.md §9). */
#include "xnnpack/xnn_backend.h"

#include <stdio.h>
#include <stdlib.h>

#include "xnnpack/xnn_quant.h"

static bool available(void) { return true; }

/* The ExecuTorch dtype an external value of datatype dt binds to. */
static bool dtype_matches(uint8_t dt, int et, bool output) {
  switch (dt) {
    case PF_XNN_DT_FP32: return et == PTERA_DTYPE_FLOAT;
    case PF_XNN_DT_FP16: return et == PTERA_DTYPE_HALF;
    case PF_XNN_DT_BF16: return et == PTERA_DTYPE_BFLOAT16;
    case PF_XNN_DT_QINT8: return et == PTERA_DTYPE_CHAR || et == PTERA_DTYPE_QINT8;
    case PF_XNN_DT_QUINT8: return et == PTERA_DTYPE_BYTE || et == PTERA_DTYPE_QUINT8;
    case PF_XNN_DT_INT32: case PF_XNN_DT_QINT32:
      return et == PTERA_DTYPE_INT || (output && et == PTERA_DTYPE_LONG);
    default: return false;
  }
}

static bool external_dt(uint8_t dt) {
  return dt == PF_XNN_DT_FP32 || dt == PF_XNN_DT_FP16 || dt == PF_XNN_DT_BF16 || dt == PF_XNN_DT_QINT8 ||
         dt == PF_XNN_DT_QUINT8 || dt == PF_XNN_DT_INT32 || dt == PF_XNN_DT_QINT32;
}

/* Bytes of constant i (through the named data when keyed). */
static ptera_status const_bytes(px_graph *g, const ptera_backend_init_ctx *ctx, uint32_t i,
                                const uint8_t **data, size_t *size) {
  const pf_xnn_const *c = &g->g.consts[i];
  if (!c->named) {
    *data = c->data;
    *size = (size_t)c->size;
    return PTERA_OK;
  }
  const void *p = NULL;
  size_t n = 0;
  ptera_status st = ctx->named_data ? ptera_named_data_get(ctx->named_data, c->key.ptr, c->key.len, &p, &n)
                                    : PTERA_NOT_FOUND;
  if (st != PTERA_OK)
    return px_fail(g, st, "constant %u: named data key '%.*s': %s", (unsigned)i,
                   (int)(c->key.len > 80 ? 80 : c->key.len), c->key.ptr,
                   st == PTERA_NOT_FOUND ? "not in the program or its attached .ptd files"
                                         : "its data cannot be read (corrupt segment table)");
  *data = p;
  *size = n;
  return PTERA_OK;
}

/* Points v at its constant bytes (copied when misaligned for its type). */
static ptera_status bind_const(px_graph *g, const ptera_backend_init_ctx *ctx, uint32_t vi) {
  px_value *v = &g->v[vi];
  const pf_xnn_value *d = v->def;
  const uint8_t *src;
  size_t have, need;
  ptera_status st = const_bytes(g, ctx, d->constant_idx, &src, &have);
  if (st != PTERA_OK) return st;
  if (!px_nbytes(v->dt, v->dims, v->ndims, &need))
    return px_fail(g, PTERA_INVALID_PROGRAM, "value %u: size overflows", (unsigned)vi);
  if (have < need)
    return px_fail(g, PTERA_INVALID_PROGRAM, "value %u (%s constant) needs %zu bytes, its data has %zu",
                   (unsigned)vi, pf_xnn_dtype_name(v->dt), need, have);
  unsigned bits = px_elem_bits(v->dt);
  size_t al = bits >= 32 ? 4 : (bits == 16 ? 2 : 1);
  if (need && ((uintptr_t)src % al)) {
    void *copy = pt_arena_alloc(&g->arena, need, 16);
    if (!copy) return px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory copying constant data");
    memcpy(copy, src, need);
    src = copy;
  }
  v->data = (void *)(uintptr_t)src; /* read-only: only node inputs are constants */
  v->is_const = true;
  return PTERA_OK;
}

/* Per-channel scales from constant data or the inline vector (§6.2). */
/* Blockwise bf16 scales (§6.3): constant data, the legacy inline bf16
 * vector, or legacy inline fp32 scales converted as upstream does
 * (x * 1.00389105f, low 16 bits truncated). */
static ptera_status bind_group_scales(px_graph *g, const ptera_backend_init_ctx *ctx, uint32_t vi) {
  px_value *v = &g->v[vi];
  const pf_xnn_value *d = v->def;
  if (!d->scale_buffer_idx && d->nscales_bf16) {
    v->bscales = d->scales_bf16;
    v->nbscales = d->nscales_bf16;
    return PTERA_OK;
  }
  uint32_t n = d->scale_buffer_idx ? d->num_scales : d->nscales;
  const uint8_t *src = NULL;
  if (d->scale_buffer_idx) { /* the data must hold n scales before n is trusted */
    size_t have;
    ptera_status st = const_bytes(g, ctx, d->scale_buffer_idx, &src, &have);
    if (st != PTERA_OK) return st;
    if (have / 2 < n)
      return px_fail(g, PTERA_INVALID_PROGRAM, "value %u: %u bf16 scales need %zu bytes, the data has %zu",
                     (unsigned)vi, (unsigned)n, (size_t)n * 2, have);
  }
  uint16_t *s = pt_arena_array(&g->arena, n ? n : 1, 2, 2);
  if (!s) return px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory copying scales");
  if (src) {
    memcpy(s, src, (size_t)n * 2);
  } else {
    for (uint32_t i = 0; i < n; i++) {
      float f = d->scales[i] * 1.00389105f;
      uint32_t u;
      memcpy(&u, &f, 4);
      s[i] = (uint16_t)(u >> 16);
    }
  }
  v->bscales = s;
  v->nbscales = n;
  return PTERA_OK;
}

static ptera_status bind_scales(px_graph *g, const ptera_backend_init_ctx *ctx, uint32_t vi) {
  px_value *v = &g->v[vi];
  const pf_xnn_value *d = v->def;
  if (d->quant == PF_XNN_Q_CHANNEL_GROUP) return bind_group_scales(g, ctx, vi);
  if (d->quant != PF_XNN_Q_PER_CHANNEL) return PTERA_OK;
  if (!d->scale_buffer_idx) {
    v->scales = d->scales;
    v->nscales = d->nscales;
  } else {
    const uint8_t *src;
    size_t have;
    ptera_status st = const_bytes(g, ctx, d->scale_buffer_idx, &src, &have);
    if (st != PTERA_OK) return st;
    if (have / 4 < d->num_scales)
      return px_fail(g, PTERA_INVALID_PROGRAM, "value %u: %u scales need %zu bytes, the data has %zu",
                     (unsigned)vi, (unsigned)d->num_scales, (size_t)d->num_scales * 4, have);
    float *s = pt_arena_array(&g->arena, d->num_scales ? d->num_scales : 1, 4, 4);
    if (!s) return px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory copying scales");
    memcpy(s, src, (size_t)d->num_scales * 4);
    v->scales = s;
    v->nscales = d->num_scales;
  }
  if (d->channel_dim < 0 || d->channel_dim >= v->ndims || v->dims[d->channel_dim] != v->nscales)
    return px_fail(g, PTERA_INVALID_PROGRAM, "value %u: %u per-channel scales for channel dim %d of a rank-%u value",
                   (unsigned)vi, (unsigned)v->nscales, d->channel_dim, (unsigned)v->ndims);
  return PTERA_OK;
}

static int cmp_ext(const void *a, const void *b, const px_graph *g) {
  uint32_t x = g->v[*(const uint32_t *)a].def->external_id, y = g->v[*(const uint32_t *)b].def->external_id;
  return x < y ? -1 : x > y;
}

/* Insertion sort by external id (few externals; qsort has no context). */
static void sort_ext(px_graph *g, uint32_t *idx, uint32_t n) {
  for (uint32_t i = 1; i < n; i++)
    for (uint32_t j = i; j > 0 && cmp_ext(&idx[j - 1], &idx[j], g) > 0; j--) {
      uint32_t t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
}

static size_t al64(size_t x) { return (x + 63) & ~(size_t)63; }

/* Whether operand k (inputs, then outputs), v, of a node is widened to fp32
 * around its run. */
static bool widened(const px_node_impl *impl, unsigned k, const px_value *v) {
  return impl->widen != PX_WIDEN_NONE && px_is_half(v->dt) && !(impl->widen == PX_WIDEN_ACTS && (k == 1 || k == 2));
}

static px_value *operand(px_graph *g, const pf_xnn_node *n, unsigned k) {
  uint32_t id = k < n->nin ? n->in[k] : n->out[k - n->nin];
  return id == PF_XNN_NONE ? NULL : &g->v[id];
}

/* Scratch of node n: its own workspace, then the fp32 copies of widened
 * operands. */
static size_t node_scratch(px_graph *g, const pf_xnn_node *n, const px_node_impl *impl, uint32_t i) {
  size_t total = al64(g->ws[i]);
  for (unsigned k = 0; k < (unsigned)n->nin + n->nout; k++) {
    const px_value *v = operand(g, n, k);
    if (v && widened(impl, k, v)) total += al64(px_numel(v) * 4);
  }
  return total;
}

static ptera_status reshape_all(px_graph *g) {
  for (g->cur = 0; g->cur < g->g.nnodes; g->cur++) {
    const pf_xnn_node *n = &g->g.nodes[g->cur];
    const px_node_impl *impl = px_node_impl_for(n->kind);
    if (!impl) return px_fail(g, PTERA_NOT_IMPLEMENTED, "node type is not implemented");
    g->ws[g->cur] = 0;
    ptera_status st = impl->reshape(g, n);
    if (st == PTERA_OK && !g->sizing) st = px_check_residency(g, n);
    if (st != PTERA_OK) return st;
    size_t need = node_scratch(g, n, impl, g->cur);
    if (g->sizing) {
      if (need > g->temp_need) g->temp_need = need;
    } else if (need > g->temp_size) {
      return px_fail(g, PTERA_INVALID_ARGUMENT,
                     "needs %zu bytes of scratch, more than the %zu bytes the stored shapes allow", need,
                     g->temp_size);
    }
  }
  g->cur = g->g.nnodes;
  return PTERA_OK;
}

/* Runs node n; fp16/bf16 operands go through fp32 copies after its own
 * workspace (the node sees fp32 values). */
static void run_node(px_graph *g, const pf_xnn_node *n) {
  const px_node_impl *impl = px_node_impl_for(n->kind);
  unsigned nops = (unsigned)n->nin + n->nout;
  void *saved[PF_XNN_MAX_NODE_IN + 2];
  uint8_t dts[PF_XNN_MAX_NODE_IN + 2];
  uint8_t *buf = g->temp ? g->temp + al64(g->ws[g->cur]) : NULL; /* non-NULL when anything is widened */
  for (unsigned k = 0; k < nops; k++) {
    px_value *v = operand(g, n, k);
    dts[k] = 0;
    if (!v || !widened(impl, k, v) || !px_numel(v)) continue; /* an empty operand is left as it is */
    size_t cnt = px_numel(v);
    saved[k] = v->data;
    dts[k] = v->dt;
    if (k < n->nin) {
      const uint16_t *s = v->data;
      float *d = (float *)buf;
      for (size_t j = 0; j < cnt; j++) d[j] = v->dt == PF_XNN_DT_FP16 ? pt_half_to_float(s[j]) : pt_bf16_to_float(s[j]);
    }
    v->data = buf;
    v->dt = PF_XNN_DT_FP32; /* an operand used twice is widened once */
    buf += al64(cnt * 4);
  }
  impl->run(g, n);
  for (unsigned k = 0; k < nops; k++) {
    if (!dts[k]) continue;
    px_value *v = operand(g, n, k);
    if (k >= n->nin) {
      const float *s = v->data;
      uint16_t *d = saved[k];
      size_t cnt = px_numel(v);
      for (size_t j = 0; j < cnt; j++) d[j] = dts[k] == PF_XNN_DT_FP16 ? pt_float_to_half(s[j]) : pt_float_to_bf16(s[j]);
    }
    v->data = saved[k];
    v->dt = dts[k];
  }
}

static ptera_status build(px_graph *g, const ptera_backend_init_ctx *ctx) {
  const pf_xnn_graph *x = &g->g;
  ptera_status est = px_expand_legacy_dq(g);
  if (est != PTERA_OK) return est;
  g->v = pt_arena_array(&g->arena, x->nvalues ? x->nvalues : 1, sizeof *g->v, 8);
  g->inputs = pt_arena_array(&g->arena, x->nvalues ? x->nvalues : 1, 4, 4);
  g->outputs = pt_arena_array(&g->arena, x->nvalues ? x->nvalues : 1, 4, 4);
  g->state = pt_arena_array(&g->arena, x->nnodes ? x->nnodes : 1, sizeof *g->state, 8);
  g->ws = pt_arena_array(&g->arena, x->nnodes ? x->nnodes : 1, sizeof *g->ws, 8);
  if (!g->v || !g->inputs || !g->outputs || !g->state || !g->ws)
    return px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  g->nthreads = ptera_threadpool_size(ctx->threadpool);
  g->cur = x->nnodes;
  for (uint32_t i = 0; i < x->nvalues; i++) {
    px_value *v = &g->v[i];
    const pf_xnn_value *d = &x->values[i];
    v->def = d;
    v->dt = d->datatype;
    v->ndims = d->ndims;
    for (unsigned k = 0; k < d->ndims; k++) v->dims[k] = d->dims[k];
    if (d->flags & PF_XNN_VALUE_INPUT) g->inputs[g->ninputs++] = i;
    if (d->flags & PF_XNN_VALUE_OUTPUT) g->outputs[g->noutputs++] = i;
    if (d->flags && !external_dt(v->dt))
      return px_fail(g, PTERA_INVALID_PROGRAM, "external value %u has datatype %s, which no tensor can hold",
                     (unsigned)i, pf_xnn_dtype_name(v->dt));
    ptera_status st = d->constant_idx ? bind_const(g, ctx, i) : PTERA_OK;
    if (st == PTERA_OK) st = bind_scales(g, ctx, i);
    if (st != PTERA_OK) return st;
    if (!d->constant_idx && !d->flags && !px_nbytes(v->dt, v->dims, v->ndims, &v->cap))
      return px_fail(g, PTERA_INVALID_PROGRAM, "value %u: size overflows", (unsigned)i);
  }
  sort_ext(g, g->inputs, g->ninputs);
  sort_ext(g, g->outputs, g->noutputs);
  /* Sizing pass over the stored shapes: checks every node and grows the
   * internal buffers and the scratch to what propagation needs. Then the
   * prepare steps pack constant operands (counted with the buffers). */
  px_fold_clamps(g);
  px_fold_transposes(g);
  g->sizing = true;
  ptera_status st = reshape_all(g);
  g->sizing = false;
  if (st == PTERA_OK) px_plan_routes(g);
  for (g->cur = 0; g->cur < x->nnodes && st == PTERA_OK; g->cur++) {
    const pf_xnn_node *n = &x->nodes[g->cur];
    const px_node_impl *impl = px_node_impl_for(n->kind);
    if (impl->prepare) st = impl->prepare(g, n);
  }
  g->cur = x->nnodes;
  if (st != PTERA_OK) return st;
  px_plan_residency(g);
  /* the scratch is the method's, sized by this request */
  return px_plan_buffers(g, g->packed_bytes + g->temp_need, ctx->max_memory_bytes);
}

static ptera_status xnn_init(ptera_backend_init_ctx *ctx, const void *blob, size_t blob_size,
                             const ptera_compile_spec *specs, size_t num_specs, void **out_handle) {
  *out_handle = NULL;
  pt_arena arena;
  pt_arena_init(&arena, ctx->allocator);
  px_graph *g = pt_arena_alloc(&arena, sizeof *g, 8);
  if (!g) {
    pt_arena_release(&arena);
    pt_err e;
    pt_fail(&e, PTERA_MEMORY_ALLOCATION_FAILED, "XNNPACK: out of memory");
    pt_err_copy(&e, ctx->message, ctx->message_size);
    return PTERA_MEMORY_ALLOCATION_FAILED;
  }
  g->msg = ctx->message;
  g->msg_size = ctx->message_size;
  pt_err e;
  pt_err_clear(&e);
  ptera_status st = pf_xnn_parse(blob, blob_size, &arena, &g->g, &e);
  g->arena = arena; /* g lives in the arena: keep the arena's state in g from here on */
  if (st != PTERA_OK) {
    pt_err_copy(&e, ctx->message, ctx->message_size);
  } else {
    st = build(g, ctx);
  }
  if (st != PTERA_OK) {
    arena = g->arena;
    pt_arena_release(&arena);
    return st;
  }
  /* the arguments execute writes: the external outputs (the runtime may
   * then update a cache the graph only reads in place) */
  uint32_t *written = pt_arena_array(&g->arena, g->noutputs ? g->noutputs : 1, sizeof *written, 4);
  if (!written) {
    arena = g->arena;
    pt_arena_release(&arena);
    pt_fail(&e, PTERA_MEMORY_ALLOCATION_FAILED, "XNNPACK: out of memory");
    pt_err_copy(&e, ctx->message, ctx->message_size);
    return PTERA_MEMORY_ALLOCATION_FAILED;
  }
  for (uint32_t i = 0; i < g->noutputs; i++) written[i] = g->v[g->outputs[i]].def->external_id;
  g->msg = NULL;
  g->msg_size = 0;
  ctx->temp_bytes = g->temp_need;
  ctx->written_args = written;
  ctx->num_written_args = g->noutputs;
  *out_handle = g;
  return PTERA_OK;
}

static void xnn_destroy(void *handle) {
  px_graph *g = handle;
  if (!g) return;
  pt_arena arena = g->arena;
  pt_arena_release(&arena);
}

/* Binds external input e to args (shape in memory order, §7). */
static ptera_status bind_input(px_graph *g, uint32_t vi, ptera_value **args, size_t nargs) {
  px_value *v = &g->v[vi];
  uint32_t id = v->def->external_id;
  if (id >= nargs || !args[id] || args[id]->tag != PTERA_TAG_TENSOR)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "external input %u is not a tensor argument (%zu arguments)",
                   (unsigned)id, nargs);
  const ptera_tensor *t = args[id]->u.tensor;
  if (!dtype_matches(v->dt, t->dtype, false))
    return px_fail(g, PTERA_INVALID_ARGUMENT, "external input %u is %s, the graph expects %s", (unsigned)id,
                   ptera_dtype_name(t->dtype), pf_xnn_dtype_name(v->dt));
  if (t->dim > PF_XNN_MAX_DIMS)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "external input %u has rank %u (at most %d)", (unsigned)id,
                   (unsigned)t->dim, PF_XNN_MAX_DIMS);
  if (!t->data && t->numel)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "external input %u has no data", (unsigned)id);
  v->ndims = t->dim;
  for (unsigned j = 0; j < t->dim; j++) v->dims[j] = (size_t)t->sizes[t->dim_order[j]];
  v->data = t->data;
  return PTERA_OK;
}

/* Resizes the output tensor to v's computed shape and binds its data. */
static ptera_status bind_output(px_graph *g, uint32_t vi, ptera_value **args, size_t nargs) {
  px_value *v = &g->v[vi];
  uint32_t id = v->def->external_id;
  if (id >= nargs || !args[id] || args[id]->tag != PTERA_TAG_TENSOR)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "external output %u is not a tensor argument (%zu arguments)",
                   (unsigned)id, nargs);
  ptera_tensor *t = args[id]->u.tensor;
  if (!dtype_matches(v->dt, t->dtype, true))
    return px_fail(g, PTERA_INVALID_ARGUMENT, "external output %u is %s, the graph produces %s", (unsigned)id,
                   ptera_dtype_name(t->dtype), pf_xnn_dtype_name(v->dt));
  size_t numel = px_numel(v);
  if (t->dim == v->ndims) {
    int32_t sizes[PTERA_MAX_DIM];
    for (unsigned j = 0; j < t->dim; j++) {
      if (v->dims[j] > INT32_MAX) return px_fail(g, PTERA_INVALID_ARGUMENT, "output dim too large");
      sizes[t->dim_order[j]] = (int32_t)v->dims[j];
    }
    ptera_status st = ptera_tensor_resize(t, t->dim, sizes);
    if (st != PTERA_OK)
      return px_fail(g, st, "external output %u cannot take its computed shape (%s)", (unsigned)id,
                     ptera_status_name(st));
  } else if (numel != t->numel) { /* rank-0 outputs are stored as [1] (§8.1) */
    return px_fail(g, PTERA_INVALID_ARGUMENT, "external output %u has rank %u, the graph computes rank %u",
                   (unsigned)id, (unsigned)t->dim, (unsigned)v->ndims);
  }
  if (!t->data && t->numel)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "external output %u has no memory", (unsigned)id);
  v->data = t->data;
  return PTERA_OK;
}

static ptera_status xnn_execute(ptera_backend_exec_ctx *ctx, void *handle, ptera_value **args, size_t nargs) {
  px_graph *g = handle;
  g->msg = ctx->message;
  g->msg_size = ctx->message_size;
  g->cur = g->g.nnodes;
  g->temp = ctx->temp;
  g->temp_size = ctx->temp ? ctx->temp_size : 0;
  pr_kernel_ctx_init(&g->kctx, "XnnpackBackend", NULL, NULL, 0);
  /* workspaces are sized for init's pool: a larger one runs on one thread */
  g->kctx.pool = ptera_threadpool_size(ctx->threadpool) <= g->nthreads ? ctx->threadpool : NULL;
  ptera_status st = PTERA_OK;
  for (uint32_t i = 0; i < g->ninputs && st == PTERA_OK; i++) st = bind_input(g, g->inputs[i], args, nargs);
  if (st == PTERA_OK) st = reshape_all(g);
  for (uint32_t i = 0; i < g->noutputs && st == PTERA_OK; i++) st = bind_output(g, g->outputs[i], args, nargs);
  if (st == PTERA_OK) {
    for (g->cur = 0; g->cur < g->g.nnodes; g->cur++) {
      const pf_xnn_node *n = &g->g.nodes[g->cur];
      run_node(g, n);
    }
    g->cur = g->g.nnodes;
    /* int64 outputs: int32 results widened in place, last element first (§9.5). */
    for (uint32_t i = 0; i < g->noutputs; i++) {
      const px_value *v = &g->v[g->outputs[i]];
      const ptera_tensor *t = args[v->def->external_id]->u.tensor;
      if (t->dtype != PTERA_DTYPE_LONG) continue;
      uint8_t *b = t->data;
      for (size_t j = t->numel; j-- > 0;) {
        int32_t x;
        memcpy(&x, b + 4 * j, 4);
        int64_t y = x;
        memcpy(b + 8 * j, &y, 8);
      }
    }
  }
  g->msg = NULL;
  g->msg_size = 0;
  return st;
}

const ptera_backend pb_xnnpack_backend = {PTERA_BACKEND_ABI_VERSION, "XnnpackBackend", available,
                                          xnn_init, xnn_execute, xnn_destroy};

/* Verifying XNNPACK blob reader (docs/XNNPACK.md §2-§6). */
#include "format/xnngraph.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/flatbuf.h"

static const char *const k_node_names[PF_XNN_NODE_MAX + 1] = {
    "unknown", "XNNAdd", "XNNFullyConnected", "XNNSoftmax", "XNNSigmoid", "XNNStaticTranspose",
    "XNNClamp", "XNNConv2d", "XNNDiv", "XNNStaticResizeBilinear2D", "XNNStaticConstantPad",
    "XNNAvgPooling2d", "XNNMinimum", "XNNDepthwiseConv2d", "XNNMaxPooling2d", "XNNMultiply",
    "XNNSubtract", "XNNFloor", "XNNConvert", "XNNGlobalAvgPooling2d", "XNNStaticReshape",
    "XNNArgMaxPooling2d", "XNNSquareRoot", "XNNCeiling", "XNNHardswish", "XNNLeakyReLU",
    "XNNMaximum", "XNNNegate", "XNNSquare", "XNNELU", "XNNAbs", "XNNPReLU", "XNNConcatenate2",
    "XNNConcatenate3", "XNNConcatenate4", "XNNStaticSlice", "XNNScaledDotProductAttention",
    "XNNBatchMatrixMultiply", "XNNConcatenate5", "XNNConvTranspose2d", "XNNReciprocalSquareRoot",
    "XNNLog", "XNNGelu", "XNNTanh", "XNNExp", "XNNSin", "XNNCopy", "XNNCos"};

static const char *const k_dtype_names[PF_XNN_DT_COUNT] = {
    "invalid", "fp32", "fp16", "qint8", "quint8", "qint32", "qcint8", "qcint32",
    "qcint4", "qdint8", "qbint4", "qpint8", "int32", "pfp32", "bf16"};

const char *pf_xnn_node_name(unsigned kind) {
  return kind >= 1 && kind <= PF_XNN_NODE_MAX ? k_node_names[kind] : "unknown";
}

const char *pf_xnn_dtype_name(unsigned dt) {
  return dt < PF_XNN_DT_COUNT ? k_dtype_names[dt] : "invalid";
}

typedef pf_xnn_layout layout;

static const layout L_2X1 = {0, -1, {-1, -1}, 2, {0, 1}, 0, 1, {2}, 3};
static const layout L_1X1 = {0, -1, {-1, -1}, 1, {0}, 0, 1, {1}, 2};
static const layout L_CONV = {15, -1, {-1, -1}, 3, {15, 16, 17}, 4, 1, {18}, 19};
static const layout L_POOL = {10, -1, {-1, -1}, 1, {10}, 0, 1, {11}, 12};
static const layout L_FC = {0, -1, {-1, -1}, 3, {0, 1, 2}, 4, 1, {3}, 4};
static const layout L_PERM = {1, -1, {1, -1}, 1, {2}, 0, 1, {3}, 4}; /* transpose, reshape */
static const layout L_RESIZE = {2, -1, {-1, -1}, 1, {2}, 0, 1, {3}, 4};
static const layout L_PAD = {0, 2, {0, 1}, 1, {3}, 0, 1, {4}, 5};
static const layout L_SLICE = {1, -1, {1, 2}, 1, {3}, 0, 1, {4}, 5};
static const layout L_ARGMAX = {6, -1, {-1, -1}, 1, {6}, 0, 2, {7, 8}, 9};
static const layout L_ALPHA = {0, 0, {-1, -1}, 1, {1}, 0, 1, {2}, 3}; /* ELU, LeakyReLU */
static const layout L_CAT2 = {1, -1, {-1, -1}, 2, {1, 2}, 0, 1, {5}, 6};
static const layout L_CAT3 = {1, -1, {-1, -1}, 3, {1, 2, 3}, 0, 1, {5}, 6};
static const layout L_CAT4 = {1, -1, {-1, -1}, 4, {1, 2, 3, 4}, 0, 1, {5}, 6};
static const layout L_CAT5 = {1, -1, {-1, -1}, 5, {1, 2, 3, 4, 7}, 0, 1, {5}, 6};

const pf_xnn_layout *pf_xnn_node_layout(unsigned kind) {
  switch (kind) {
    case PF_XNN_ADD: case PF_XNN_DIV: case PF_XNN_MINIMUM: case PF_XNN_MULTIPLY:
    case PF_XNN_SUBTRACT: case PF_XNN_MAXIMUM: case PF_XNN_PRELU: case PF_XNN_BMM:
      return &L_2X1;
    case PF_XNN_SOFTMAX: case PF_XNN_SIGMOID: case PF_XNN_CLAMP: case PF_XNN_FLOOR:
    case PF_XNN_CONVERT: case PF_XNN_GLOBAL_AVG_POOL: case PF_XNN_SQRT: case PF_XNN_CEILING:
    case PF_XNN_HARDSWISH: case PF_XNN_NEGATE: case PF_XNN_SQUARE: case PF_XNN_ABS:
    case PF_XNN_RSQRT: case PF_XNN_LOG: case PF_XNN_GELU: case PF_XNN_TANH: case PF_XNN_EXP:
    case PF_XNN_SIN: case PF_XNN_COPY: case PF_XNN_COS:
      return &L_1X1;
    case PF_XNN_CONV2D: case PF_XNN_DEPTHWISE_CONV2D: case PF_XNN_CONV_TRANSPOSE2D: return &L_CONV;
    case PF_XNN_AVG_POOL: case PF_XNN_MAX_POOL: return &L_POOL;
    case PF_XNN_FULLY_CONNECTED: return &L_FC;
    case PF_XNN_STATIC_TRANSPOSE: case PF_XNN_STATIC_RESHAPE: return &L_PERM;
    case PF_XNN_RESIZE_BILINEAR: return &L_RESIZE;
    case PF_XNN_CONSTANT_PAD: return &L_PAD;
    case PF_XNN_STATIC_SLICE: return &L_SLICE;
    case PF_XNN_ARGMAX_POOL: return &L_ARGMAX;
    case PF_XNN_ELU: case PF_XNN_LEAKY_RELU: return &L_ALPHA;
    case PF_XNN_CONCAT2: return &L_CAT2;
    case PF_XNN_CONCAT3: return &L_CAT3;
    case PF_XNN_CONCAT4: return &L_CAT4;
    case PF_XNN_CONCAT5: return &L_CAT5;
    default: return NULL; /* SDPA and unknown codes */
  }
}

typedef struct rd {
  pf_fb fb;
  pt_arena *arena;
  pt_err *err;
  pf_xnn_graph *g;
  char where[96]; /* "XNNPACK node 3 (XNNConv2d)" */
} rd;

static ptera_status fbe(rd *r, const char *what) {
  return pf_fb_error(&r->fb, r->err, PTERA_DELEGATE_INVALID_COMPATIBILITY, "%s%s%s", r->where,
                     r->where[0] ? ": " : "", what);
}

static ptera_status fail(rd *r, ptera_status st, const char *fmt, ...) PT_PRINTF(3, 4);
static ptera_status fail(rd *r, ptera_status st, const char *fmt, ...) {
  char msg[PT_ERRMSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return pt_fail(r->err, st, "%s%s%s", r->where, r->where[0] ? ": " : "", msg);
}

static ptera_status oom(rd *r) {
  return fail(r, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory decoding the XNNPACK graph");
}

/* Copies a [uint] vector into the arena. */
static ptera_status copy_u32s(rd *r, const pf_fb_vec *v, const uint32_t **out) {
  uint32_t *d = pt_arena_array(r->arena, v->count ? v->count : 1, 4, 4);
  if (!d) return oom(r);
  for (uint32_t i = 0; i < v->count; i++) d[i] = pf_fb_vec_u32(&r->fb, v, i);
  *out = d;
  return PTERA_OK;
}

static ptera_status copy_f32s(rd *r, const pf_fb_vec *v, const float **out) {
  float *d = pt_arena_array(r->arena, v->count ? v->count : 1, 4, 4);
  if (!d) return oom(r);
  for (uint32_t i = 0; i < v->count; i++) d[i] = pf_fb_vec_f32(&r->fb, v, i);
  *out = d;
  return PTERA_OK;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */

static ptera_status read_tensor_value(rd *r, const pf_fb_table *t, pf_xnn_value *v) {
  int16_t dt, dq;
  pf_fb_vec dims;
  if (!pf_fb_i16(&r->fb, t, 0, 0, &dt)) return fbe(r, "datatype");
  if (dt <= 0 || dt >= PF_XNN_DT_COUNT)
    return fail(r, PTERA_INVALID_PROGRAM, "invalid datatype %d (valid: 1..%d)", dt,
                PF_XNN_DT_COUNT - 1);
  v->datatype = (uint8_t)dt;
  if (!pf_fb_vec_field(&r->fb, t, 2, 4, &dims)) return fbe(r, "dims");
  if (dims.count > PF_XNN_MAX_DIMS)
    return fail(r, PTERA_INVALID_PROGRAM, "rank %u exceeds XNNPACK's maximum of %d",
                (unsigned)dims.count, PF_XNN_MAX_DIMS);
  v->ndims = (uint8_t)dims.count;
  for (uint32_t i = 0; i < dims.count; i++) v->dims[i] = pf_fb_vec_u32(&r->fb, &dims, i);
  if (!pf_fb_u32(&r->fb, t, 3, 0, &v->constant_idx) ||
      !pf_fb_u32(&r->fb, t, 4, 0, &v->external_id) ||
      !pf_fb_u32(&r->fb, t, 5, 0, &v->flags) || !pf_fb_u32(&r->fb, t, 6, 0, &v->id_out) ||
      !pf_fb_i16(&r->fb, t, 7, 0, &dq))
    return fbe(r, "tensor value");
  if (v->flags & ~(PF_XNN_VALUE_INPUT | PF_XNN_VALUE_OUTPUT))
    return fail(r, PTERA_INVALID_PROGRAM, "unknown value flags 0x%x (valid: 0x1 input, 0x2 output)",
                (unsigned)v->flags);
  if (v->flags == (PF_XNN_VALUE_INPUT | PF_XNN_VALUE_OUTPUT))
    return fail(r, PTERA_INVALID_PROGRAM, "value is both an external input and an external output");
  if (dq != 0 && dq != PF_XNN_DT_QINT8)
    return fail(r, PTERA_INVALID_PROGRAM, "legacy dq_datatype %d is not qint8 (3)", dq);
  if (dq && (v->flags != PF_XNN_VALUE_INPUT || v->constant_idx))
    return fail(r, PTERA_INVALID_PROGRAM,
                "legacy dq_datatype on a value that is not a non-constant external input");
  v->dq_datatype = (uint8_t)dq;
  return PTERA_OK;
}

static ptera_status read_quant(rd *r, const pf_fb_table *q, uint8_t type, pf_xnn_value *v) {
  pf_fb_vec sc;
  v->quant = type;
  switch (type) {
    case PF_XNN_Q_PER_TENSOR:
      if (!pf_fb_f32(&r->fb, q, 0, 0.0f, &v->scale) || !pf_fb_i32(&r->fb, q, 1, 0, &v->zero_point))
        return fbe(r, "PerTensorQuant");
      return PTERA_OK;
    case PF_XNN_Q_PER_CHANNEL:
      if (!pf_fb_vec_field(&r->fb, q, 0, 4, &sc) || !pf_fb_i32(&r->fb, q, 1, 0, &v->channel_dim) ||
          !pf_fb_u32(&r->fb, q, 2, 0, &v->scale_buffer_idx) ||
          !pf_fb_u32(&r->fb, q, 3, 0, &v->num_scales))
        return fbe(r, "PerChannelQuant");
      v->nscales = sc.count;
      return copy_f32s(r, &sc, &v->scales);
    case PF_XNN_Q_PER_TOKEN:
      if (!pf_fb_i32(&r->fb, q, 0, 0, &v->num_nonbatch_dims)) return fbe(r, "PerTokenDynamicQuant");
      return PTERA_OK;
    case PF_XNN_Q_CHANNEL_GROUP: {
      pf_fb_vec bf;
      if (!pf_fb_vec_field(&r->fb, q, 0, 4, &sc) || !pf_fb_i32(&r->fb, q, 1, 0, &v->channel_dim) ||
          !pf_fb_i32(&r->fb, q, 2, 0, &v->group_size) || !pf_fb_vec_field(&r->fb, q, 3, 2, &bf) ||
          !pf_fb_u32(&r->fb, q, 4, 0, &v->scale_buffer_idx) ||
          !pf_fb_u32(&r->fb, q, 5, 0, &v->num_scales))
        return fbe(r, "PerChannelGroupQuant");
      v->nscales = sc.count;
      ptera_status st = copy_f32s(r, &sc, &v->scales);
      if (st != PTERA_OK) return st;
      uint16_t *d = pt_arena_array(r->arena, bf.count ? bf.count : 1, 2, 2);
      if (!d) return oom(r);
      for (uint32_t i = 0; i < bf.count; i++) d[i] = pf_fb_vec_u16(&r->fb, &bf, i);
      v->scales_bf16 = d;
      v->nscales_bf16 = bf.count;
      return PTERA_OK;
    }
    default:
      return fail(r, PTERA_INVALID_PROGRAM, "unknown quantization parameters type %u", type);
  }
}

static ptera_status read_value(rd *r, const pf_fb_table *xv, pf_xnn_value *v) {
  uint8_t type;
  pf_fb_table u;
  if (!pf_fb_union_field(&r->fb, xv, 0, 255, &type, &u)) return fbe(r, "value type");
  if (type != 1 && type != 2)
    return fail(r, PTERA_INVALID_PROGRAM, "unknown value type %u (valid: 1 tensor, 2 quantized tensor)",
                type);
  if (!u.present) return fail(r, PTERA_INVALID_PROGRAM, "value has no payload");
  if (type == 1) return read_tensor_value(r, &u, v);
  pf_fb_table tv, q;
  uint8_t qtype;
  if (!pf_fb_table_field(&r->fb, &u, 0, &tv)) return fbe(r, "quantized tensor_value");
  if (!tv.present) return fail(r, PTERA_INVALID_PROGRAM, "quantized value has no tensor_value");
  ptera_status st = read_tensor_value(r, &tv, v);
  if (st != PTERA_OK) return st;
  if (!pf_fb_union_field(&r->fb, &u, 1, 255, &qtype, &q)) return fbe(r, "quant_params");
  if (qtype == 0 || !q.present)
    return fail(r, PTERA_INVALID_PROGRAM, "quantized value has no quantization parameters");
  return read_quant(r, &q, qtype, v);
}

/* ------------------------------------------------------------------ */
/* Nodes                                                               */

/* Maps a serialized id to its value index by binary search over ids. */
typedef struct id_map {
  uint32_t id, index;
} id_map;

static int cmp_id(const void *a, const void *b) {
  uint32_t x = ((const id_map *)a)->id, y = ((const id_map *)b)->id;
  return x < y ? -1 : x > y;
}

static bool find_id(const id_map *m, uint32_t n, uint32_t id, uint32_t *index) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m[mid].id == id) {
      *index = m[mid].index;
      return true;
    }
    if (m[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

static ptera_status resolve(rd *r, const id_map *m, uint32_t id, bool optional, const char *what,
                            uint32_t *out) {
  if (id == PF_XNN_NONE && optional) {
    *out = PF_XNN_NONE;
    return PTERA_OK;
  }
  if (!find_id(m, r->g->nvalues, id, out))
    return fail(r, PTERA_INVALID_PROGRAM, "%s refers to value id %u, which no value defines", what,
                (unsigned)id);
  return PTERA_OK;
}

static ptera_status read_node(rd *r, const pf_fb_table *xn, const id_map *m, pf_xnn_node *n) {
  uint8_t kind;
  pf_fb_table t, mm;
  if (!pf_fb_union_field(&r->fb, xn, 0, 255, &kind, &t)) return fbe(r, "node type");
  n->kind = kind;
  const layout *L = pf_xnn_node_layout(kind);
  if (!L) {
    if (kind == PF_XNN_SDPA)
      return fail(r, PTERA_NOT_IMPLEMENTED,
                  "XNNScaledDotProductAttention is not supported (the upstream runtime does not "
                  "define it either)");
    return fail(r, PTERA_NOT_IMPLEMENTED, "unknown node type %u", kind);
  }
  if (!t.present) return fail(r, PTERA_INVALID_PROGRAM, "node has no payload");
  if (!pf_fb_u32(&r->fb, xn, 2, 0, &n->debug_handle) || !pf_fb_table_field(&r->fb, xn, 3, &mm))
    return fbe(r, "node");
  n->out_min = -INFINITY;
  n->out_max = INFINITY;
  if (mm.present) {
    /* Absent fields of a present table take the schema default 0 (§3.3). */
    n->has_min_max = true;
    if (!pf_fb_f32(&r->fb, &mm, 0, 0.0f, &n->out_min) || !pf_fb_f32(&r->fb, &mm, 1, 0.0f, &n->out_max))
      return fbe(r, "output_min_max");
    if (isnan(n->out_min) || isnan(n->out_max) || n->out_min > n->out_max)
      return fail(r, PTERA_INVALID_PROGRAM, "output_min_max [%g, %g] is not a range",
                  (double)n->out_min, (double)n->out_max);
  }
  for (unsigned i = 0; i < L->nparam; i++)
    if (!pf_fb_u32(&r->fb, &t, i, 0, &n->p[i])) return fbe(r, "node parameter");
  if (L->f32 >= 0 && !pf_fb_f32(&r->fb, &t, (unsigned)L->f32, 0.0f, &n->f)) return fbe(r, "node parameter");
  for (unsigned k = 0; k < 2; k++) {
    if (L->vec[k] < 0) continue;
    pf_fb_vec v;
    if (!pf_fb_vec_field(&r->fb, &t, (unsigned)L->vec[k], 4, &v)) return fbe(r, "node vector");
    if (!v.present) return fail(r, PTERA_INVALID_PROGRAM, "node vector field %d is missing", L->vec[k]);
    if (v.count > PF_XNN_MAX_DIMS)
      return fail(r, PTERA_INVALID_PROGRAM, "node vector field %d has %u entries (at most %d dims)",
                  L->vec[k], (unsigned)v.count, PF_XNN_MAX_DIMS);
    ptera_status st = copy_u32s(r, &v, k ? &n->v1 : &n->v0);
    if (st != PTERA_OK) return st;
    if (k) n->n1 = v.count;
    else n->n0 = v.count;
  }
  if (L->vec[1] >= 0 && n->n0 != n->n1)
    return fail(r, PTERA_INVALID_PROGRAM, "node vectors have %u and %u entries", (unsigned)n->n0,
                (unsigned)n->n1);
  n->nin = L->nin;
  n->nout = L->nout;
  static const char *const in_names[PF_XNN_MAX_NODE_IN] = {"input 1", "input 2", "input 3", "input 4",
                                                           "input 5"};
  for (unsigned i = 0; i < L->nin; i++) {
    uint32_t id;
    if (!pf_fb_u32(&r->fb, &t, L->in[i], 0, &id)) return fbe(r, "node input id");
    ptera_status st = resolve(r, m, id, (L->opt_mask >> i) & 1, in_names[i], &n->in[i]);
    if (st != PTERA_OK) return st;
  }
  for (unsigned i = 0; i < L->nout; i++) {
    uint32_t id;
    if (!pf_fb_u32(&r->fb, &t, L->out[i], 0, &id)) return fbe(r, "node output id");
    ptera_status st = resolve(r, m, id, false, i ? "output 2" : "output", &n->out[i]);
    if (st != PTERA_OK) return st;
    const pf_xnn_value *ov = &r->g->values[n->out[i]];
    if (ov->constant_idx || (ov->flags & PF_XNN_VALUE_INPUT))
      return fail(r, PTERA_INVALID_PROGRAM, "node writes value id %u, which is a constant or an input",
                  (unsigned)id);
  }
  if (!pf_fb_u32(&r->fb, &t, L->flags, 0, &n->flags)) return fbe(r, "node flags");
  return PTERA_OK;
}

/* ------------------------------------------------------------------ */
/* Constants                                                           */

static ptera_status read_consts(rd *r, const pf_fb_table *root, const uint8_t *cdata, uint64_t csize) {
  pf_fb_vec v;
  pf_xnn_graph *g = r->g;
  unsigned field = g->has_header ? 8 : 6;
  if (!pf_fb_vec_field(&r->fb, root, field, 4, &v))
    return fbe(r, g->has_header ? "constant_data" : "constant_buffer");
  g->nconsts = v.count;
  g->consts = pt_arena_array(r->arena, v.count ? v.count : 1, sizeof *g->consts, 8);
  if (!g->consts) return oom(r);
  for (uint32_t i = 0; i < v.count; i++) {
    pf_fb_table e;
    pf_xnn_const *c = &g->consts[i];
    snprintf(r->where, sizeof r->where, "XNNPACK constant %u", (unsigned)i);
    if (!pf_fb_vec_table(&r->fb, &v, i, &e)) return fbe(r, "entry");
    if (!e.present) return fail(r, PTERA_INVALID_PROGRAM, "entry is null");
    if (!g->has_header) {
      pf_fb_vec s;
      if (!pf_fb_vec_field(&r->fb, &e, 0, 1, &s)) return fbe(r, "storage");
      c->data = pf_fb_vec_data(&r->fb, &s);
      c->size = s.count;
      continue;
    }
    pf_fb_str key;
    uint64_t off, size;
    if (!pf_fb_u64(&r->fb, &e, 0, 0, &off) || !pf_fb_u64(&r->fb, &e, 1, 0, &size) ||
        !pf_fb_str_field(&r->fb, &e, 2, &key))
      return fbe(r, "entry");
    c->size = size;
    if (key.ptr) { /* presence of the key decides, not offset == UINT64_MAX */
      c->named = true;
      c->key.ptr = key.ptr;
      c->key.len = key.len;
      continue;
    }
    uint64_t end;
    if (!pt_add_u64(off, size, &end) || end > csize)
      return fail(r, PTERA_INVALID_PROGRAM,
                  "offset %llu + size %llu exceeds the %llu-byte constant data area",
                  (unsigned long long)off, (unsigned long long)size, (unsigned long long)csize);
    c->data = cdata + off;
  }
  r->where[0] = '\0';
  return PTERA_OK;
}

/* ------------------------------------------------------------------ */

static ptera_status check_value(rd *r, const pf_xnn_value *v, uint8_t *ext_seen) {
  pf_xnn_graph *g = r->g;
  if (v->constant_idx >= g->nconsts)
    return fail(r, PTERA_INVALID_PROGRAM, "constant index %u, but the graph has %u constants",
                (unsigned)v->constant_idx, (unsigned)g->nconsts);
  if (v->scale_buffer_idx >= g->nconsts)
    return fail(r, PTERA_INVALID_PROGRAM, "scale buffer index %u, but the graph has %u constants",
                (unsigned)v->scale_buffer_idx, (unsigned)g->nconsts);
  if (v->flags) {
    if (v->constant_idx)
      return fail(r, PTERA_INVALID_PROGRAM, "an external value cannot have constant data");
    if (v->external_id >= g->num_externs)
      return fail(r, PTERA_INVALID_PROGRAM, "external id %u, but the graph has %u externals",
                  (unsigned)v->external_id, (unsigned)g->num_externs);
    if (ext_seen[v->external_id])
      return fail(r, PTERA_INVALID_PROGRAM, "external id %u is used by two values",
                  (unsigned)v->external_id);
    ext_seen[v->external_id] = 1;
  }
  return PTERA_OK;
}

/* Values are written once, before they are read (XNNPACK's subgraph has one
 * producer per value, and ExecuTorch serializes nodes in execution order).
 * The backend sizes each value from its one writer's shape: a second writer,
 * or a read that runs first and sees the shape the previous execution left,
 * could address more than the tensor bound to that value holds. */
static ptera_status check_order(rd *r, const pf_xnn_node *n, uint32_t node, uint32_t *writer) {
  const pf_xnn_graph *g = r->g;
  for (unsigned i = 0; i < n->nin; i++) {
    uint32_t v = n->in[i];
    if (v == PF_XNN_NONE || g->values[v].constant_idx || (g->values[v].flags & PF_XNN_VALUE_INPUT)) continue;
    if (writer[v] == PF_XNN_NONE)
      return fail(r, PTERA_INVALID_PROGRAM, "input %u reads value id %u before any node writes it", i + 1,
                  (unsigned)g->values[v].id_out);
  }
  for (unsigned i = 0; i < n->nout; i++) {
    uint32_t v = n->out[i];
    if (writer[v] != PF_XNN_NONE)
      return fail(r, PTERA_INVALID_PROGRAM, "node writes value id %u, which node %u already writes",
                  (unsigned)g->values[v].id_out, (unsigned)writer[v]);
    writer[v] = node;
  }
  return PTERA_OK;
}

static ptera_status parse_graph(rd *r, const uint8_t *fbuf, uint32_t fsize, const uint8_t *cdata,
                                uint64_t csize) {
  pf_xnn_graph *g = r->g;
  if (!pf_fb_has_ident(fbuf, fsize, "XN01") && !pf_fb_has_ident(fbuf, fsize, "XN00"))
    return fail(r, PTERA_DELEGATE_INVALID_COMPATIBILITY,
                "XNNPACK flatbuffer identifier is not XN01 or XN00");
  memcpy(g->ident, fbuf + 4, 4);
  g->ident[4] = '\0';
  pf_fb_table root;
  pf_fb_vec xnodes, xvalues;
  if (!pf_fb_init(&r->fb, fbuf, fsize) || !pf_fb_root(&r->fb, &root)) return fbe(r, "XNNGraph");
  if (!pf_fb_vec_field(&r->fb, &root, 1, 4, &xnodes) || !pf_fb_vec_field(&r->fb, &root, 2, 4, &xvalues) ||
      !pf_fb_u32(&r->fb, &root, 3, 0, &g->num_externs))
    return fbe(r, "XNNGraph");
  if (!xnodes.present || !xvalues.present)
    return fail(r, PTERA_INVALID_PROGRAM, "XNNGraph has no %s", xnodes.present ? "xvalues" : "xnodes");
  if (g->num_externs > PF_XNN_MAX_EXTERNS)
    return fail(r, PTERA_INVALID_PROGRAM, "XNNGraph has %u externals (at most %u)",
                (unsigned)g->num_externs, PF_XNN_MAX_EXTERNS);
  ptera_status st = read_consts(r, &root, cdata, csize);
  if (st != PTERA_OK) return st;

  g->nvalues = xvalues.count;
  g->values = pt_arena_array(r->arena, xvalues.count ? xvalues.count : 1, sizeof *g->values, 8);
  id_map *m = pt_arena_array(r->arena, xvalues.count ? xvalues.count : 1, sizeof *m, 4);
  uint8_t *ext_seen = pt_arena_alloc(r->arena, g->num_externs ? g->num_externs : 1, 1);
  if (!g->values || !m || !ext_seen) return oom(r);
  for (uint32_t i = 0; i < xvalues.count; i++) {
    pf_fb_table xv;
    snprintf(r->where, sizeof r->where, "XNNPACK value %u", (unsigned)i);
    if (!pf_fb_vec_table(&r->fb, &xvalues, i, &xv)) return fbe(r, "value");
    if (!xv.present) return fail(r, PTERA_INVALID_PROGRAM, "value is null");
    st = read_value(r, &xv, &g->values[i]);
    if (st == PTERA_OK) st = check_value(r, &g->values[i], ext_seen);
    if (st != PTERA_OK) return st;
    m[i].id = g->values[i].id_out;
    m[i].index = i;
  }
  qsort(m, xvalues.count, sizeof *m, cmp_id);
  for (uint32_t i = 1; i < xvalues.count; i++)
    if (m[i].id == m[i - 1].id) {
      snprintf(r->where, sizeof r->where, "XNNPACK value %u", (unsigned)m[i].index);
      return fail(r, PTERA_INVALID_PROGRAM, "value id %u is already defined by value %u",
                  (unsigned)m[i].id, (unsigned)m[i - 1].index);
    }

  g->nnodes = xnodes.count;
  g->nodes = pt_arena_array(r->arena, xnodes.count ? xnodes.count : 1, sizeof *g->nodes, 8);
  uint32_t *writer = pt_arena_array(r->arena, xvalues.count ? xvalues.count : 1, 4, 4);
  if (!g->nodes || !writer) return oom(r);
  for (uint32_t i = 0; i < xvalues.count; i++) writer[i] = PF_XNN_NONE;
  for (uint32_t i = 0; i < xnodes.count; i++) {
    pf_fb_table xn;
    snprintf(r->where, sizeof r->where, "XNNPACK node %u", (unsigned)i);
    if (!pf_fb_vec_table(&r->fb, &xnodes, i, &xn)) return fbe(r, "node");
    if (!xn.present) return fail(r, PTERA_INVALID_PROGRAM, "node is null");
    uint8_t kind;
    if (!pf_fb_u8(&r->fb, &xn, 0, 0, &kind)) return fbe(r, "node type");
    snprintf(r->where, sizeof r->where, "XNNPACK node %u (%s)", (unsigned)i, pf_xnn_node_name(kind));
    st = read_node(r, &xn, m, &g->nodes[i]);
    if (st == PTERA_OK) st = check_order(r, &g->nodes[i], i, writer);
    if (st != PTERA_OK) return st;
  }
  r->where[0] = '\0';
  return PTERA_OK;
}

ptera_status pf_xnn_parse(const uint8_t *blob, size_t size, pt_arena *arena, pf_xnn_graph *out,
                          pt_err *err) {
  rd r;
  memset(&r, 0, sizeof r);
  memset(out, 0, sizeof *out);
  r.arena = arena;
  r.err = err;
  r.g = out;
  if (!blob || size < PF_XNN_HEADER_SIZE)
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "XNNPACK blob is %zu bytes (at least %u needed)",
                   blob ? size : 0, PF_XNN_HEADER_SIZE);
  if (size > PF_FB_MAX_LEN)
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "XNNPACK blob of %zu bytes is too large", size);
  if (memcmp(blob + 4, "XH00", 4) != 0) /* legacy: the whole blob is the flatbuffer */
    return parse_graph(&r, blob, (uint32_t)size, NULL, 0);
  out->has_header = true;
  uint32_t foff = pt_le32(blob + 10), fsize = pt_le32(blob + 14), coff = pt_le32(blob + 18);
  uint64_t csize = pt_le64(blob + 22);
  uint64_t fend = (uint64_t)foff + fsize, cend;
  if (fsize < 8 || fend > size)
    return pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "XNNPACK header: flatbuffer at %u, %u bytes, does not fit in the %zu-byte blob",
                   (unsigned)foff, (unsigned)fsize, size);
  if (!pt_add_u64(coff, csize, &cend) || cend > size || coff < fend)
    return pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "XNNPACK header: constant data at %u, %llu bytes, is not between the flatbuffer's "
                   "end (%llu) and the blob's end (%zu)",
                   (unsigned)coff, (unsigned long long)csize, (unsigned long long)fend, size);
  return parse_graph(&r, blob + foff, fsize, blob + coff, csize);
}

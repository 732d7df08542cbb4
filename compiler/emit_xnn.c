/* XNNGraph writer (docs/XNNPACK.md §2-§6) on the generic flatbuffer builder.
 * Constants (and per-channel fp32 or blockwise bf16 scale arrays) go to the
 * blob's constant data area, 16-byte aligned, addressed by offset, or are
 * named (named_key: the bytes live in the program's named data);
 * constant_data[0] is the reserved {named_key: ""} entry, as the upstream
 * writer emits it. */
#include "emit_xnn.h"

#include "fbb.h"

#define ALIGN16(x) (((x) + 15u) & ~(size_t)15u)

typedef struct cdata {
  uint64_t off[2 * 4096 + 1], size[2 * 4096 + 1];
  const char *key[2 * 4096 + 1]; /* named entries; NULL for offset ones */
  uint32_t n;   /* entries, including the reserved 0 */
  size_t total; /* bytes */
} cdata;

/* A constant named key: an entry without bytes in the blob. */
static uint32_t add_named(cdata *c, const char *key, size_t nbytes) {
  if (c->n >= sizeof c->off / sizeof c->off[0]) return 0;
  c->off[c->n] = UINT64_MAX;
  c->size[c->n] = nbytes;
  c->key[c->n] = key;
  return c->n++;
}

/* Reserves a constant of nbytes; returns its index (0 when out of room). */
static uint32_t add_const(cdata *c, size_t nbytes) {
  if (c->n >= sizeof c->off / sizeof c->off[0]) return 0;
  c->off[c->n] = c->total;
  c->size[c->n] = nbytes;
  c->total = ALIGN16(c->total + nbytes);
  return c->n++;
}

/* Bytes per scale: fp32 per channel, bf16 blockwise. */
static size_t scale_bytes(const pc_xnn_value_desc *v) { return v->quant == PF_XNN_Q_CHANNEL_GROUP ? 2 : 4; }

static pc_fbb_ref tensor_value(pc_fbb *b, const pc_xnn_value_desc *v, uint32_t id, uint32_t cidx) {
  pc_fbb_ref dims = pc_fbb_vec_scalars(b, v->dims, v->ndims, 4, 0);
  pc_fbb_table_start(b);
  pc_fbb_add_i16(b, 0, (int16_t)v->datatype);
  pc_fbb_add_u32(b, 1, v->ndims);
  pc_fbb_add_ref(b, 2, dims);
  pc_fbb_add_u32(b, 3, cidx);
  pc_fbb_add_u32(b, 4, v->flags ? v->external_id : PF_XNN_NONE);
  pc_fbb_add_u32(b, 5, v->flags);
  pc_fbb_add_u32(b, 6, id);
  if (v->dq_datatype) pc_fbb_add_i16(b, 7, (int16_t)v->dq_datatype);
  return pc_fbb_table_end(b);
}

static pc_fbb_ref quant_params(pc_fbb *b, const pc_xnn_value_desc *v, uint32_t scale_idx) {
  pc_fbb_ref empty = v->quant == PF_XNN_Q_PER_CHANNEL ? pc_fbb_vec_scalars(b, NULL, 0, 4, 0) : 0;
  pc_fbb_table_start(b);
  switch (v->quant) {
    case PF_XNN_Q_PER_TENSOR:
      pc_fbb_add_f32(b, 0, v->scale);
      pc_fbb_add_i32(b, 1, v->zero_point);
      break;
    case PF_XNN_Q_PER_CHANNEL:
      pc_fbb_add_ref(b, 0, empty);
      pc_fbb_add_i32(b, 1, v->channel_dim);
      pc_fbb_add_u32(b, 2, scale_idx);
      pc_fbb_add_u32(b, 3, v->nscales);
      break;
    case PF_XNN_Q_CHANNEL_GROUP:
      pc_fbb_add_i32(b, 1, v->channel_dim);
      pc_fbb_add_i32(b, 2, v->group_size);
      pc_fbb_add_u32(b, 4, scale_idx);
      pc_fbb_add_u32(b, 5, v->nscales);
      break;
    default: /* PF_XNN_Q_PER_TOKEN */
      pc_fbb_add_i32(b, 0, v->num_nonbatch_dims);
      break;
  }
  return pc_fbb_table_end(b);
}

static pc_fbb_ref node(pc_fbb *b, const pc_xnn_node_desc *n) {
  const pf_xnn_layout *L = pf_xnn_node_layout(n->kind);
  pc_fbb_ref vec[2] = {0, 0};
  for (unsigned k = 0; k < 2; k++)
    if (L->vec[k] >= 0) vec[k] = pc_fbb_vec_scalars(b, k ? n->v1 : n->v0, k ? n->n1 : n->n0, 4, 0);
  pc_fbb_table_start(b);
  for (unsigned i = 0; i < L->nparam; i++) pc_fbb_add_u32(b, i, n->p[i]);
  if (L->f32 >= 0) pc_fbb_add_f32(b, (unsigned)L->f32, n->f);
  for (unsigned k = 0; k < 2; k++)
    if (L->vec[k] >= 0) pc_fbb_add_ref(b, (unsigned)L->vec[k], vec[k]);
  for (unsigned i = 0; i < L->nin; i++) pc_fbb_add_u32(b, L->in[i], n->in[i]);
  for (unsigned i = 0; i < L->nout; i++) pc_fbb_add_u32(b, L->out[i], n->out[i]);
  pc_fbb_add_u32(b, L->flags, n->flags);
  pc_fbb_ref table = pc_fbb_table_end(b);
  pc_fbb_ref mm = 0;
  if (n->has_min_max) {
    pc_fbb_table_start(b);
    pc_fbb_add_f32(b, 0, n->out_min);
    pc_fbb_add_f32(b, 1, n->out_max);
    mm = pc_fbb_table_end(b);
  }
  pc_fbb_table_start(b);
  pc_fbb_add_union(b, 0, n->kind, table);
  pc_fbb_add_u32(b, 2, 0);
  pc_fbb_add_ref(b, 3, mm);
  return pc_fbb_table_end(b);
}

static pc_fbb_ref graph(pc_fbb *b, const pc_xnn_value_desc *values, uint32_t nvalues, const pc_xnn_node_desc *nodes,
                        uint32_t nnodes, uint32_t num_externs, cdata *c, uint32_t *cidx, uint32_t *sidx) {
  for (uint32_t i = 0; i < nvalues; i++) {
    const pc_xnn_value_desc *v = &values[i];
    pc_fbb_ref tv = tensor_value(b, v, i, cidx[i]), payload = tv;
    if (v->quant) {
      pc_fbb_ref q = quant_params(b, v, sidx[i]);
      pc_fbb_table_start(b);
      pc_fbb_add_ref(b, 0, tv);
      pc_fbb_add_union(b, 1, v->quant, q);
      payload = pc_fbb_table_end(b);
    }
    pc_fbb_table_start(b);
    pc_fbb_add_union(b, 0, v->quant ? 2 : 1, payload);
    pc_fbb_push(b, pc_fbb_table_end(b));
  }
  pc_fbb_ref xvalues = pc_fbb_vec_stack(b, nvalues);
  for (uint32_t i = 0; i < nnodes; i++) pc_fbb_push(b, node(b, &nodes[i]));
  pc_fbb_ref xnodes = pc_fbb_vec_stack(b, nnodes);
  for (uint32_t i = 0; i < c->n; i++) {
    pc_fbb_ref key = i == 0 ? pc_fbb_string(b, "", 0) : c->key[i] ? pc_fbb_cstring(b, c->key[i]) : 0;
    pc_fbb_table_start(b);
    if (i == 0) {
      pc_fbb_add_ref(b, 2, key);
    } else {
      pc_fbb_add_u64(b, 0, c->off[i]);
      pc_fbb_add_u64(b, 1, c->size[i]);
      if (key) pc_fbb_add_ref(b, 2, key);
    }
    pc_fbb_push(b, pc_fbb_table_end(b));
  }
  pc_fbb_ref consts = pc_fbb_vec_stack(b, c->n);
  uint32_t io[2][PF_XNN_MAX_EXTERNS];
  uint32_t nio[2] = {0, 0};
  for (uint32_t i = 0; i < nvalues; i++)
    for (unsigned k = 0; k < 2; k++)
      if ((values[i].flags >> k) & 1 && nio[k] < PF_XNN_MAX_EXTERNS) io[k][nio[k]++] = i;
  pc_fbb_ref ins = pc_fbb_vec_scalars(b, io[0], nio[0], 4, 0), outs = pc_fbb_vec_scalars(b, io[1], nio[1], 4, 0);
  pc_fbb_ref version = pc_fbb_cstring(b, "0");
  pc_fbb_table_start(b);
  pc_fbb_add_ref(b, 0, version);
  pc_fbb_add_ref(b, 1, xnodes);
  pc_fbb_add_ref(b, 2, xvalues);
  pc_fbb_add_u32(b, 3, num_externs);
  pc_fbb_add_ref(b, 4, ins);
  pc_fbb_add_ref(b, 5, outs);
  pc_fbb_add_ref(b, 8, consts);
  return pc_fbb_table_end(b);
}

ptera_status pc_xnn_emit(const pc_xnn_value_desc *values, uint32_t nvalues, const pc_xnn_node_desc *nodes,
                         uint32_t nnodes, uint32_t num_externs, const ptera_allocator *a, uint8_t **out,
                         size_t *out_size) {
  *out = NULL;
  *out_size = 0;
  for (uint32_t i = 0; i < nnodes; i++)
    if (!pf_xnn_node_layout(nodes[i].kind)) return PTERA_INVALID_ARGUMENT;
  if (nvalues > 4096) return PTERA_INVALID_ARGUMENT;
  cdata *c = pt_calloc(a, 1, sizeof *c, 8);
  uint32_t *idx = pt_calloc(a, 2 * (size_t)(nvalues ? nvalues : 1), 4, 4);
  if (!c || !idx) {
    pt_free(a, c);
    pt_free(a, idx);
    return PTERA_MEMORY_ALLOCATION_FAILED;
  }
  uint32_t *cidx = idx, *sidx = idx + nvalues;
  c->n = 1; /* reserved entry 0 */
  for (uint32_t i = 0; i < nvalues; i++) {
    if (values[i].named_key) cidx[i] = add_named(c, values[i].named_key, values[i].nbytes);
    else if (values[i].data) cidx[i] = add_const(c, values[i].nbytes);
    if (values[i].quant == PF_XNN_Q_PER_CHANNEL || values[i].quant == PF_XNN_Q_CHANNEL_GROUP)
      sidx[i] = add_const(c, (size_t)values[i].nscales * scale_bytes(&values[i]));
  }
  pc_fbb b;
  pc_fbb_init(&b, a);
  ptera_status st = pc_fbb_finish(&b, graph(&b, values, nvalues, nodes, nnodes, num_externs, c, cidx, sidx), "XN01");
  size_t fsize = 0;
  const uint8_t *fb = st == PTERA_OK ? pc_fbb_data(&b, &fsize) : NULL;
  size_t coff = 32 + ALIGN16(fsize), total = coff + c->total;
  uint8_t *blob = st == PTERA_OK ? pt_calloc(a, 1, total, 16) : NULL;
  if (st == PTERA_OK && !blob) st = PTERA_MEMORY_ALLOCATION_FAILED;
  if (st == PTERA_OK) {
    memcpy(blob + 4, "XH00", 4);
    blob[8] = 30;
    pt_put_le32(blob + 10, 32);
    pt_put_le32(blob + 14, (uint32_t)fsize);
    pt_put_le32(blob + 18, (uint32_t)coff);
    pt_put_le64(blob + 22, c->total);
    memcpy(blob + 32, fb, fsize);
    for (uint32_t i = 0; i < nvalues; i++) {
      if (values[i].data && values[i].nbytes) memcpy(blob + coff + c->off[cidx[i]], values[i].data, values[i].nbytes);
      const void *sc = values[i].quant == PF_XNN_Q_CHANNEL_GROUP ? (const void *)values[i].scales_bf16
                                                                  : (const void *)values[i].scales;
      if (sidx[i] && values[i].nscales && sc)
        memcpy(blob + coff + c->off[sidx[i]], sc, (size_t)values[i].nscales * scale_bytes(&values[i]));
    }
    *out = blob;
    *out_size = total;
  }
  pc_fbb_release(&b);
  pt_free(a, c);
  pt_free(a, idx);
  return st;
}

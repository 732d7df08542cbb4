/* The legacy dynamic-quantization encoding (docs/XNNPACK.md §6.4): an fp32
 * external input marked dq_datatype = qint8 stands for itself, an internal
 * qdint8 value (per token, num_nonbatch_dims 1) and a Convert between them,
 * which every node reading the input reads instead. Rewrites the decoded
 * graph in place (arena copies), Converts first. */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_expand_legacy_dq(px_graph *g) {
  pf_xnn_graph *x = &g->g;
  uint32_t nd = 0;
  for (uint32_t i = 0; i < x->nvalues; i++) nd += x->values[i].dq_datatype != 0;
  if (!nd) return PTERA_OK;
  if (x->nvalues > UINT32_MAX / 2 - nd || x->nnodes > UINT32_MAX / 2 - nd)
    return px_fail(g, PTERA_INVALID_PROGRAM, "graph too large");
  pf_xnn_value *vals = pt_arena_array(&g->arena, (size_t)x->nvalues + nd, sizeof *vals, 8);
  pf_xnn_node *nodes = pt_arena_array(&g->arena, (size_t)x->nnodes + nd, sizeof *nodes, 8);
  uint32_t *map = pt_arena_array(&g->arena, x->nvalues, sizeof *map, 4);
  if (!vals || !nodes || !map) return px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  memcpy(vals, x->values, (size_t)x->nvalues * sizeof *vals);
  uint32_t nv = x->nvalues, nn = 0;
  for (uint32_t i = 0; i < x->nvalues; i++) {
    map[i] = i;
    if (!vals[i].dq_datatype) continue;
    if (vals[i].datatype != PF_XNN_DT_FP32)
      return px_fail(g, PTERA_NOT_IMPLEMENTED, "value %u: legacy dynamic quantization of %s is not implemented",
                     (unsigned)i, pf_xnn_dtype_name(vals[i].datatype));
    pf_xnn_value *q = &vals[nv];
    *q = vals[i];
    q->datatype = PF_XNN_DT_QDINT8;
    q->dq_datatype = 0;
    q->flags = 0;
    q->external_id = PF_XNN_NONE;
    q->id_out = PF_XNN_NONE;
    q->quant = PF_XNN_Q_PER_TOKEN;
    q->num_nonbatch_dims = 1;
    vals[i].dq_datatype = 0;
    pf_xnn_node *c = &nodes[nn++];
    memset(c, 0, sizeof *c);
    c->kind = PF_XNN_CONVERT;
    c->out_min = -INFINITY;
    c->out_max = INFINITY;
    c->nin = c->nout = 1;
    for (unsigned k = 0; k < PF_XNN_MAX_NODE_IN; k++) c->in[k] = PF_XNN_NONE;
    c->in[0] = i;
    c->out[0] = nv;
    c->out[1] = PF_XNN_NONE;
    map[i] = nv++;
  }
  for (uint32_t j = 0; j < x->nnodes; j++) {
    pf_xnn_node *m = &nodes[nn++];
    *m = x->nodes[j];
    for (unsigned k = 0; k < m->nin; k++)
      if (m->in[k] != PF_XNN_NONE) m->in[k] = map[m->in[k]];
  }
  x->values = vals;
  x->nvalues = nv;
  x->nodes = nodes;
  x->nnodes = nn;
  return PTERA_OK;
}

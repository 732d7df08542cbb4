/* Fuzzes the XNNPACK blob reader: pf_xnn_parse, then every invariant
 * xnngraph.h promises (operand indices, constant indices and bounds,
 * external ids, ranks, codes), touching every byte it hands out. */
#include "format/xnngraph.h"
#include "fuzz.h"

static void check_graph(const pf_xnn_graph *g) {
  for (uint32_t i = 0; i < g->nconsts; i++) {
    const pf_xnn_const *c = &g->consts[i];
    if (c->named) fz_str(c->key.ptr, c->key.len);
    else fz_touch(c->data, c->size);
  }
  uint32_t nin = 0;
  for (uint32_t i = 0; i < g->nvalues; i++) {
    const pf_xnn_value *v = &g->values[i];
    FZ_REQUIRE(v->datatype > 0 && v->datatype < PF_XNN_DT_COUNT);
    FZ_REQUIRE(v->ndims <= PF_XNN_MAX_DIMS);
    FZ_REQUIRE(v->constant_idx < g->nconsts || v->constant_idx == 0);
    FZ_REQUIRE(v->scale_buffer_idx < g->nconsts || v->scale_buffer_idx == 0);
    FZ_REQUIRE(v->flags <= 2);
    if (v->flags) {
      FZ_REQUIRE(v->external_id < g->num_externs && v->constant_idx == 0);
      nin++;
    }
    FZ_REQUIRE(v->quant <= PF_XNN_Q_CHANNEL_GROUP);
    fz_touch(v->scales, (uint64_t)v->nscales * 4);
    fz_touch(v->scales_bf16, (uint64_t)v->nscales_bf16 * 2);
  }
  FZ_REQUIRE(nin <= g->num_externs && g->num_externs <= PF_XNN_MAX_EXTERNS);
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const pf_xnn_node *n = &g->nodes[i];
    FZ_REQUIRE(n->kind >= 1 && n->kind <= PF_XNN_NODE_MAX && n->kind != PF_XNN_SDPA);
    FZ_REQUIRE(n->nin <= PF_XNN_MAX_NODE_IN && n->nout <= 2);
    for (unsigned k = 0; k < n->nin; k++) FZ_REQUIRE(n->in[k] < g->nvalues || n->in[k] == PF_XNN_NONE);
    for (unsigned k = 0; k < n->nout; k++) FZ_REQUIRE(n->out[k] < g->nvalues);
    FZ_REQUIRE(n->n0 <= PF_XNN_MAX_DIMS && n->n1 <= PF_XNN_MAX_DIMS);
    fz_touch(n->v0, (uint64_t)n->n0 * 4);
    fz_touch(n->v1, (uint64_t)n->n1 * 4);
    FZ_REQUIRE(!(n->out_min > n->out_max));
  }
}

int ptera_fuzz_xnngraph(const uint8_t *data, size_t size) {
  uint8_t *buf = fz_aligned_copy(data, size);
  if (!buf) return 0;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_xnn_graph g;
  pt_err err;
  pt_err_clear(&err);
  if (pf_xnn_parse(buf, size, &arena, &g, &err) == PTERA_OK) check_graph(&g);
  else FZ_REQUIRE(err.msg[0] != '\0');
  pt_arena_release(&arena);
  free(buf);
  return 0;
}

PTERA_FUZZ_MAIN(xnngraph)

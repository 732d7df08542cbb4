/* StaticTransposes folded into BatchMatrixMultiply (init, before sizing).
 *
 *   x --StaticTranspose(p1)--> t1 --StaticReshape(same dims)--> t2 --StaticTranspose(p2)--> b --BMM(a, b)--> y
 *   becomes
 *   x ..................................................................--BMM(a, x through p1∘p2)--> y
 *
 * BMM reads B through strides, and a permutation of x is x with permuted
 * strides. A chain of StaticTransposes and reshapes that keep the dims
 * (an expand or view that changes nothing) ending in the B of BMM nodes is
 * folded when every value after x is an internal fp32 value that only the
 * next link reads (the last: only BMMs, as B): those values are never
 * written (a decoder step's K and V caches were copied twice a layer).
 * Values are written once per execution and only by their producer, so x
 * holds the same bytes when the BMM reads it. At execute the BMM's reshape
 * checks that the dims still line up (px_bmm_reshape). */
#include "xnnpack/xnn.h"

/* Node writing value v, or NULL. */
static const pf_xnn_node *producer(const pf_xnn_graph *x, uint32_t v) {
  for (uint32_t j = 0; j < x->nnodes; j++)
    for (unsigned k = 0; k < x->nodes[j].nout; k++)
      if (x->nodes[j].out[k] == v) return &x->nodes[j];
  return NULL;
}

/* Whether every reader of v is `next` (reading it as its input) or, with
 * next NULL, a BMM reading it as B; and there is one. */
static bool read_only_by(const pf_xnn_graph *x, uint32_t v, const pf_xnn_node *next) {
  size_t readers = 0;
  for (uint32_t j = 0; j < x->nnodes; j++) {
    const pf_xnn_node *n = &x->nodes[j];
    for (unsigned k = 0; k < n->nin; k++) {
      if (n->in[k] != v) continue;
      if (next ? n != next : (n->kind != PF_XNN_BMM || k != 1)) return false;
      readers++;
    }
  }
  return readers > 0;
}

static bool same_dims(const px_value *a, const px_value *b) {
  return a->ndims == b->ndims && !memcmp(a->dims, b->dims, a->ndims * sizeof a->dims[0]);
}

/* Link node p (writing cur) that a view may look through: a fp32
 * StaticTranspose, or a StaticReshape to the dims it reads (no inferred entry). */
static bool link(const px_graph *g, const pf_xnn_node *p) {
  if (!p || p->nin != 1 || p->nout != 1) return false;
  const px_value *in = &g->v[p->in[0]], *out = &g->v[p->out[0]];
  if (in->dt != PF_XNN_DT_FP32 || out->dt != PF_XNN_DT_FP32 || out->is_const || out->def->flags) return false;
  if (p->kind == PF_XNN_STATIC_TRANSPOSE) return p->n0 == in->ndims;
  if (p->kind != PF_XNN_STATIC_RESHAPE || !same_dims(in, out) || p->n0 != out->ndims) return false;
  for (uint32_t i = 0; i < p->n0; i++)
    if (p->v0[i] != out->dims[i]) return false;
  return true;
}

/* Folds the chain ending in value b (read by BMMs as B), if any. */
static void fold(px_graph *g, uint32_t b) {
  const pf_xnn_graph *x = &g->g;
  uint8_t perm[PF_XNN_MAX_DIMS]; /* dim d of b is dim perm[d] of cur */
  unsigned r = g->v[b].ndims;
  for (unsigned d = 0; d < r; d++) perm[d] = (uint8_t)d;
  uint32_t cur = b, src = b;
  bool transposes = false;
  const pf_xnn_node *next = NULL; /* the link reading cur */
  for (const pf_xnn_node *p = producer(x, cur); link(g, p) && read_only_by(x, cur, next); p = producer(x, cur)) {
    if (p->kind == PF_XNN_STATIC_TRANSPOSE) {
      for (unsigned d = 0; d < r; d++) perm[d] = (uint8_t)p->v0[perm[d]];
      transposes = true;
    }
    next = p;
    cur = p->in[0];
    if (transposes) src = cur;
  }
  if (src == b) return;
  /* the links from src to b write nothing: mark what they write */
  for (uint32_t v = b; v != src; v = producer(x, v)->in[0]) {
    g->v[v].view = true;
    g->v[v].view_src = src;
  }
  memcpy(g->v[b].view_perm, perm, sizeof perm);
}

void px_fold_transposes(px_graph *g) {
  const pf_xnn_graph *x = &g->g;
  for (uint32_t i = 0; i < x->nnodes; i++) {
    const pf_xnn_node *n = &x->nodes[i];
    if (n->kind == PF_XNN_BMM && n->nin >= 2 && !g->v[n->in[1]].view && read_only_by(x, n->in[1], NULL))
      fold(g, n->in[1]);
  }
}

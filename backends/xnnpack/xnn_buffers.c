/* Buffers of the internal values (init, after residency is planned): one
 * block, with values whose lifetimes do not overlap sharing bytes
 * (core/memplan.h), as the CPU path's planned memory does. A value lives
 * from the node that writes it to the last node that reads it; an output
 * and the inputs of its own node never share bytes, so no node runs in
 * place.
 *
 * Some values are the bytes of another at run time, and extend its life
 * instead of taking their own:
 *   - the output of a Copy or StaticReshape (px_copy_run points it at its
 *     input);
 *   - the output of an NCHW-resident StaticTranspose (px_transpose_run);
 *   - the links of a transpose chain folded into BatchMatrixMultiply: the
 *     BMM reads the chain's start (xnn_fold_transpose.c).
 * Every node writes its outputs once per execution, before any reader runs
 * (nodes run in order), so no value needs its bytes kept between
 * executions. */
#include "core/memplan.h"
#include "xnnpack/xnn.h"

static bool internal(const px_value *v) { return !v->is_const && !v->def->flags; }

/* The value whose bytes output o of node n is at run time, or NONE. */
static uint32_t alias_source(const px_graph *g, const pf_xnn_node *n, uint32_t o) {
  const px_value *v = &g->v[o];
  if (!internal(v)) return PF_XNN_NONE;
  if (v->view) return v->view_src;
  if (n->kind == PF_XNN_COPY || n->kind == PF_XNN_STATIC_RESHAPE) return n->in[0];
  if (n->kind == PF_XNN_STATIC_TRANSPOSE && v->nchw) return n->in[0];
  return PF_XNN_NONE;
}

ptera_status px_plan_buffers(px_graph *g, uint64_t reserved, uint64_t limit) {
  const pf_xnn_graph *x = &g->g;
  uint32_t nv = x->nvalues;
  const ptera_allocator *al = g->arena.allocator;
  pt_membuf *b = pt_calloc(al, nv ? nv : 1, sizeof *b, _Alignof(pt_membuf));
  if (!b) return px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory planning value buffers");
  bool *seen = pt_calloc(al, nv ? nv : 1, sizeof *seen, 1);
  if (!seen) {
    pt_free(al, b);
    return px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory planning value buffers");
  }
  for (uint32_t i = 0; i < nv; i++) {
    b[i].alias_of = -1;
    b[i].nbytes = internal(&g->v[i]) ? g->v[i].cap : 0;
  }
  /* Lifetimes in node indices; a value read before (or without) being
   * written lives from the start. */
  for (uint32_t j = 0; j < x->nnodes; j++) {
    const pf_xnn_node *n = &x->nodes[j];
    for (unsigned k = 0; k < n->nin; k++) {
      uint32_t id = n->in[k];
      if (id == PF_XNN_NONE) continue;
      if (!seen[id]) b[id].first_use = 0;
      seen[id] = true;
      b[id].last_use = j;
    }
    for (unsigned k = 0; k < n->nout; k++) {
      uint32_t id = n->out[k];
      if (id == PF_XNN_NONE) continue;
      if (!seen[id]) b[id].first_use = b[id].last_use = j;
      seen[id] = true;
      uint32_t src = alias_source(g, n, id);
      if (src != PF_XNN_NONE && src != id && b[id].alias_of < 0) {
        b[id].alias_of = (int32_t)src;
        b[id].nbytes = 0;
      }
    }
  }
  pt_memplan plan;
  pt_err e;
  pt_err_clear(&e);
  ptera_status st = pt_memplan_compute(b, nv, 64, al, &plan, &e);
  uint64_t total = UINT64_MAX;
  if (st == PTERA_OK && limit && (!pt_add_u64(reserved, plan.arena_sizes[1], &total) || total > limit)) {
    st = px_fail(g, PTERA_OUT_OF_RESOURCES,
                 "the graph's internal values, packed weights and scratch need %llu bytes, more than the "
                 "%llu-byte limit (ptera_load_options.max_planned_bytes)",
                 (unsigned long long)total, (unsigned long long)limit);
    pt_memplan_free(&plan);
  } else if (st == PTERA_OK) {
    uint8_t *base = pt_arena_alloc(&g->arena, plan.arena_sizes[1] ? (size_t)plan.arena_sizes[1] : 1, 64);
    if (!base) {
      st = px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for %llu bytes of value buffers",
                   (unsigned long long)plan.arena_sizes[1]);
    } else {
      for (uint32_t i = 0; i < nv; i++)
        if (internal(&g->v[i])) g->v[i].data = base + plan.locs[i].offset;
    }
    pt_memplan_free(&plan);
  } else if (e.status != PTERA_OK) {
    st = px_fail(g, st, "planning value buffers: %s", e.msg);
  }
  pt_free(al, seen);
  pt_free(al, b);
  return st;
}

/* Constant deduplication (passes.h): unmutated CONST tensors with equal
 * dtype, rank, sizes, dim order and bytes merge into the one with the lowest
 * id (counted when a live call or a method output referred to it).
 * References in node arguments, tensor lists and method outputs are
 * rewritten to the survivor; its data and fqn are left as they are.
 * Constants are grouped by a hash of their metadata and bytes, then compared
 * byte for byte. */
#include <stdlib.h>

#include "mutation.h"
#include "passes.h"

typedef struct const_key {
  uint64_t hash;
  int32_t id;
} const_key;

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

static uint64_t hash_const(const pc_gtensor *t) {
  uint64_t h = mix(0x243f6a8885a308d3ull, ((uint64_t)t->dtype << 8) | t->dim);
  for (uint32_t i = 0; i < t->dim; i++)
    h = mix(h, ((uint64_t)(uint32_t)t->sizes[i] << 8) | t->dim_order[i]);
  h = mix(h, (uint64_t)t->nbytes);
  /* Four independent lanes over 8-byte words keep this memory bound. */
  uint64_t lane[4] = {h, h ^ 0x1111, h ^ 0x2222, h ^ 0x3333};
  const uint8_t *p = t->data;
  size_t n = t->nbytes, i = 0;
  for (; i + 32 <= n; i += 32)
    for (int k = 0; k < 4; k++) {
      uint64_t w;
      memcpy(&w, p + i + 8 * (size_t)k, 8);
      lane[k] = (lane[k] ^ w) * 0x9fb21c651e98df25ull;
      lane[k] ^= lane[k] >> 29;
    }
  for (int k = 0; k < 4; k++) h = mix(h, lane[k]);
  for (; i < n; i++) h = mix(h, p[i]);
  return h;
}

static void mark_used(void *ctx, int32_t v, bool written) {
  (void)written;
  ((uint8_t *)ctx)[v] = 1;
}

static int cmp_key(const void *a, const void *b) {
  const const_key *x = a, *y = b;
  if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

static bool same_const(const pc_gtensor *a, const pc_gtensor *b) {
  if (a->dtype != b->dtype || a->dim != b->dim || a->dynamism != b->dynamism ||
      a->nbytes != b->nbytes)
    return false;
  for (uint32_t i = 0; i < a->dim; i++)
    if (a->sizes[i] != b->sizes[i] || a->dim_order[i] != b->dim_order[i]) return false;
  return a->nbytes == 0 || a->data == b->data || memcmp(a->data, b->data, a->nbytes) == 0;
}

ptera_status pc_dedup_constants(pc_graph *g, pc_pass_stats *stats) {
  pc_mutation m;
  ptera_status st = pc_mutation_analyze(g, &m);
  if (st != PTERA_OK) return st;
  uint32_t nv = g->nvalues ? g->nvalues : 1;
  const_key *keys = pt_alloc(g->allocator, (size_t)nv * sizeof *keys, 0);
  int32_t *repl = pt_alloc(g->allocator, (size_t)nv * sizeof *repl, 0);
  uint8_t *used = pt_calloc(g->allocator, nv, 1, 0);
  if (!keys || !repl || !used) {
    pt_free(g->allocator, keys);
    pt_free(g->allocator, repl);
    pt_free(g->allocator, used);
    pc_mutation_free(g, &m);
    return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED,
                   "out of memory deduplicating the constants of '%s'", g->name);
  }
  /* Only duplicates something still refers to count (one merged by an
   * earlier run is not counted again). */
  for (uint32_t k = 0; k < g->nnodes; k++)
    if (!g->nodes[k].removed) pc_graph_visit_args(g, &g->nodes[k], mark_used, used);
  for (uint32_t i = 0; i < g->noutputs; i++) {
    const pc_gvalue *x = &g->values[g->outputs[i]];
    used[g->outputs[i]] = 1;
    if (x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS)
      for (uint32_t k = 0; k < x->u.tensors.len; k++)
        if (x->u.tensors.ids[k] >= 0) used[x->u.tensors.ids[k]] = 1;
  }
  uint32_t nkeys = 0;
  for (uint32_t v = 0; v < g->nvalues; v++) {
    repl[v] = (int32_t)v;
    const pc_gvalue *x = &g->values[v];
    if (x->kind != PC_G_TENSOR || x->u.t.store != PC_T_CONST || m.mutated[v] ||
        m.is_input[v] || (g->named_consts_replaceable && x->u.t.fqn))
      continue;
    keys[nkeys].hash = hash_const(&x->u.t);
    keys[nkeys++].id = (int32_t)v;
  }
  qsort(keys, nkeys, sizeof *keys, cmp_key);

  uint32_t merged = 0;
  uint64_t merged_bytes = 0;
  for (uint32_t lo = 0; lo < nkeys;) {
    uint32_t hi = lo + 1;
    while (hi < nkeys && keys[hi].hash == keys[lo].hash) hi++;
    /* Within a run (ascending ids), each constant joins the first earlier
     * survivor it equals. */
    for (uint32_t i = lo + 1; i < hi; i++) {
      const pc_gtensor *t = &g->values[keys[i].id].u.t;
      for (uint32_t j = lo; j < i; j++) {
        int32_t s = keys[j].id;
        if (repl[s] != s || !same_const(&g->values[s].u.t, t)) continue;
        repl[keys[i].id] = s;
        if (used[keys[i].id]) {
          merged++;
          merged_bytes += t->nbytes;
        }
        /* The duplicate's views now share the survivor's storage. */
        if (m.class_size[pc_graph_alias_root(g, keys[i].id)] > 1 &&
            (st = pc_graph_alias(g, s, keys[i].id)) != PTERA_OK)
          goto done;
        break;
      }
    }
    lo = hi;
  }

  if (merged) {
    for (uint32_t k = 0; k < g->nnodes; k++) {
      pc_gnode *n = &g->nodes[k];
      for (uint32_t i = 0; i < n->nargs; i++) n->args[i] = repl[n->args[i]];
    }
    for (uint32_t v = 0; v < g->nvalues; v++) {
      pc_gvalue *x = &g->values[v];
      if (x->kind != PC_G_TENSORS && x->kind != PC_G_OPT_TENSORS) continue;
      for (uint32_t i = 0; i < x->u.tensors.len; i++)
        if (x->u.tensors.ids[i] >= 0) x->u.tensors.ids[i] = repl[x->u.tensors.ids[i]];
    }
    for (uint32_t i = 0; i < g->noutputs; i++) g->outputs[i] = repl[g->outputs[i]];
  }
  if (stats) {
    stats->merged_constants += merged;
    stats->merged_bytes += merged_bytes;
  }
done:
  pt_free(g->allocator, keys);
  pt_free(g->allocator, repl);
  pt_free(g->allocator, used);
  pc_mutation_free(g, &m);
  return st;
}

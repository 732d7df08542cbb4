/* The order a partitioned method runs in (partition.h): a topological order
 * of the units (CPU calls and whole partitions) that, whenever several are
 * ready, takes the one whose earliest call comes first (Kahn's algorithm
 * with a min-heap on that node index). The original order is a topological
 * order of the calls, so the CPU calls keep their relative order. */
#include "partition.h"

typedef struct heap {
  uint32_t *a;
  uint32_t n;
} heap;

static void heap_push(heap *h, uint32_t x) {
  uint32_t i = h->n++;
  while (i > 0 && h->a[(i - 1) / 2] > x) {
    h->a[i] = h->a[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->a[i] = x;
}

static uint32_t heap_pop(heap *h) {
  uint32_t top = h->a[0], x = h->a[--h->n], i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->a[c + 1] < h->a[c]) c++;
    if (h->a[c] >= x) break;
    h->a[i] = h->a[c];
    i = c;
  }
  if (h->n) h->a[i] = x;
  return top;
}

/* Units are keyed by their earliest node: partition p by parts[p].nodes[0],
 * a CPU call by its own index. */
static uint32_t unit_key(const pc_partitioning *p, uint32_t k) {
  return p->part[k] >= 0 ? p->parts[p->part[k]].nodes[0] : k;
}

ptera_status pc_partition_schedule(pc_graph *g, const uint32_t *pred_start, const uint32_t *pred,
                                   const uint32_t *succ_start, const uint32_t *succ,
                                   pc_partitioning *p) {
  const ptera_allocator *a = g->allocator;
  uint32_t n = g->nnodes, n1 = n ? n : 1, units = 0;
  uint32_t *indeg = pt_calloc(a, n1, sizeof *indeg, 0); /* by unit key */
  heap h = {pt_alloc(a, (size_t)n1 * sizeof *h.a, 0), 0};
  p->order = pt_alloc(a, (size_t)n1 * sizeof *p->order, 0);
  if (!indeg || !h.a || !p->order) {
    pt_free(a, indeg);
    pt_free(a, h.a);
    return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory scheduling '%s'", g->name);
  }
  for (uint32_t k = 0; k < n; k++) {
    if (g->nodes[k].removed || g->nodes[k].kind != PC_N_CALL) continue;
    uint32_t u = unit_key(p, k);
    if (u == k) units++;
    for (uint32_t e = pred_start[k]; e < pred_start[k + 1]; e++)
      if (unit_key(p, pred[e]) != u) indeg[u]++;
  }
  for (uint32_t k = 0; k < n; k++)
    if (!g->nodes[k].removed && g->nodes[k].kind == PC_N_CALL && unit_key(p, k) == k && !indeg[k])
      heap_push(&h, k);
  p->norder = 0;
  while (h.n) {
    uint32_t u = heap_pop(&h);
    int32_t part = p->part[u];
    p->order[p->norder++] = part >= 0 ? -1 - part : (pc_unit)u;
    uint32_t count = part >= 0 ? p->parts[part].nnodes : 1;
    for (uint32_t i = 0; i < count; i++) {
      uint32_t k = part >= 0 ? p->parts[part].nodes[i] : u;
      for (uint32_t e = succ_start[k]; e < succ_start[k + 1]; e++) {
        uint32_t v = unit_key(p, succ[e]);
        if (v != u && --indeg[v] == 0) heap_push(&h, v);
      }
    }
  }
  pt_free(a, indeg);
  pt_free(a, h.a);
  if (p->norder != units)
    return pt_fail(&g->err, PTERA_INTERNAL,
                   "partitioning '%s' left %u of %u units unscheduled (a dependency cycle)", g->name,
                   units - p->norder, units);
  return PTERA_OK;
}

/* Greedy best-fit memory planner; see memplan.h. */
#include "core/memplan.h"

typedef struct pt_mgroup {
  uint64_t size;   /* aligned extent (largest member) */
  uint64_t offset; /* once placed */
  uint32_t first, last;
  bool pinned;
} pt_mgroup;

/* Resolves every buffer to the root of its alias chain. root[i] must be
 * SIZE_MAX on entry. O(n) amortized: each chain is walked once and then
 * compressed. */
static ptera_status resolve_roots(const pt_membuf *bufs, size_t n, size_t *root, pt_err *e) {
  for (size_t i = 0; i < n; i++) {
    int32_t a = bufs[i].alias_of;
    if (a < -1 || (a >= 0 && ((size_t)a >= n || (size_t)a == i)))
      return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: buffer %zu: bad alias_of %ld", i,
                     (long)a);
  }
  for (size_t i = 0; i < n; i++) {
    if (root[i] != SIZE_MAX) continue;
    size_t k = i, steps = 0;
    while (root[k] == SIZE_MAX && bufs[k].alias_of >= 0) {
      if (++steps > n)
        return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: buffer %zu: alias cycle", i);
      k = (size_t)bufs[k].alias_of;
    }
    size_t r = root[k] != SIZE_MAX ? root[k] : k;
    for (size_t j = i; root[j] == SIZE_MAX;) {
      root[j] = r;
      if (bufs[j].alias_of < 0) break;
      j = (size_t)bufs[j].alias_of;
    }
  }
  return PTERA_OK;
}

static bool align_up(uint64_t v, uint64_t align, uint64_t *out) {
  uint64_t t;
  if (!pt_add_u64(v, align - 1, &t)) return false;
  *out = t & ~(align - 1);
  return true;
}

/* Builds the alias groups (indexed by root) for bufs. */
static ptera_status build_groups(const pt_membuf *bufs, size_t n, uint64_t align,
                                 const size_t *root, pt_mgroup *g, pt_err *e) {
  for (size_t i = 0; i < n; i++) {
    if (bufs[i].first_use > bufs[i].last_use)
      return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: buffer %zu: first_use %lu > last_use %lu",
                     i, (unsigned long)bufs[i].first_use, (unsigned long)bufs[i].last_use);
    g[i].size = 0;
    g[i].offset = 0;
    g[i].first = UINT32_MAX;
    g[i].last = 0;
    g[i].pinned = false;
  }
  for (size_t i = 0; i < n; i++) {
    pt_mgroup *r = &g[root[i]];
    uint64_t sz;
    if (!align_up(bufs[i].nbytes, align, &sz) || sz > SIZE_MAX)
      return pt_fail(e, PTERA_INVALID_ARGUMENT,
                     "memplan: buffer %zu: size %zu overflows when aligned to %lu", i,
                     bufs[i].nbytes, (unsigned long)align);
    if (sz > r->size) r->size = sz;
    if (bufs[i].first_use < r->first) r->first = bufs[i].first_use;
    if (bufs[i].last_use > r->last) r->last = bufs[i].last_use;
    if (bufs[i].pinned) r->pinned = true;
  }
  return PTERA_OK;
}

static bool groups_conflict(const pt_mgroup *a, const pt_mgroup *b) {
  if (a->size == 0 || b->size == 0) return false;
  if (a->pinned || b->pinned) return true;
  return a->first <= b->last && b->first <= a->last;
}

/* Stable merge sort of indices with a context (qsort has none). */
typedef int (*pt_mcmp)(const void *ctx, size_t a, size_t b);

static void merge_sort(size_t *v, size_t *tmp, size_t n, pt_mcmp cmp, const void *ctx) {
  if (n < 2) return;
  size_t h = n / 2;
  merge_sort(v, tmp, h, cmp, ctx);
  merge_sort(v + h, tmp, n - h, cmp, ctx);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
  while (i < h) tmp[k++] = v[i++];
  while (j < n) tmp[k++] = v[j++];
  memcpy(v, tmp, n * sizeof *v);
}

/* Placement order: size descending, then first use, then index. */
static int cmp_place(const void *ctx, size_t a, size_t b) {
  const pt_mgroup *g = ctx;
  if (g[a].size != g[b].size) return g[a].size > g[b].size ? -1 : 1;
  if (g[a].first != g[b].first) return g[a].first < g[b].first ? -1 : 1;
  return a < b ? -1 : (a > b ? 1 : 0);
}

/* Offset order (for the gap walk). */
static int cmp_offset(const void *ctx, size_t a, size_t b) {
  const pt_mgroup *g = ctx;
  if (g[a].offset != g[b].offset) return g[a].offset < g[b].offset ? -1 : 1;
  return a < b ? -1 : (a > b ? 1 : 0);
}

static void plan_clear(pt_memplan *p) { memset(p, 0, sizeof *p); }

void pt_memplan_free(pt_memplan *plan) {
  if (!plan) return;
  pt_free(plan->allocator, plan->locs);
  pt_free(plan->allocator, plan->arena_sizes);
  plan_clear(plan);
}

ptera_status pt_memplan_compute(const pt_membuf *bufs, size_t n, size_t alignment,
                                const ptera_allocator *allocator, pt_memplan *out, pt_err *e) {
  if (!out) return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: no output plan");
  plan_clear(out);
  if (alignment == 0) alignment = PT_MEMPLAN_DEFAULT_ALIGNMENT;
  if ((alignment & (alignment - 1)) != 0)
    return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: alignment %zu is not a power of two",
                   alignment);
  if (n > 0 && !bufs) return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: no buffers");
  if (n > SIZE_MAX / sizeof(pt_mgroup))
    return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: too many buffers (%zu)", n);

  ptera_status st = PTERA_OK;
  size_t *root = NULL, *order = NULL, *conf = NULL, *tmp = NULL;
  pt_mgroup *g = NULL;
  pt_memloc *locs = NULL;
  uint64_t *arenas = pt_calloc(allocator, 2, sizeof(uint64_t), _Alignof(uint64_t));
  if (!arenas) goto oom;
  if (n > 0) {
    root = pt_calloc(allocator, n, sizeof *root, _Alignof(size_t));
    g = pt_calloc(allocator, n, sizeof *g, _Alignof(pt_mgroup));
    order = pt_calloc(allocator, n, sizeof *order, _Alignof(size_t));
    conf = pt_calloc(allocator, n, sizeof *conf, _Alignof(size_t));
    tmp = pt_calloc(allocator, n, sizeof *tmp, _Alignof(size_t));
    locs = pt_calloc(allocator, n, sizeof *locs, _Alignof(pt_memloc));
    if (!root || !g || !order || !conf || !tmp || !locs) goto oom;
  }
  for (size_t i = 0; i < n; i++) root[i] = SIZE_MAX;
  if ((st = resolve_roots(bufs, n, root, e)) != PTERA_OK) goto done;
  if ((st = build_groups(bufs, n, alignment, root, g, e)) != PTERA_OK) goto done;

  /* Totals: no-reuse sum and the live-bytes lower bound. */
  size_t ngroups = 0;
  uint64_t sum = 0, max_live = 0;
  for (size_t i = 0; i < n; i++) {
    if (root[i] != i) continue;
    order[ngroups++] = i;
    if (!pt_add_u64(sum, g[i].size, &sum) || sum > SIZE_MAX) {
      st = pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: total buffer size overflows");
      goto done;
    }
  }
  for (size_t a = 0; a < ngroups; a++) {
    /* Live bytes peak at some group's first use (pinned: always live). */
    const pt_mgroup *ga = &g[order[a]];
    uint64_t live = 0;
    for (size_t b = 0; b < ngroups; b++) {
      const pt_mgroup *gb = &g[order[b]];
      if (gb->pinned || (gb->first <= ga->first && ga->first <= gb->last)) live += gb->size;
    }
    if (live > max_live) max_live = live;
  }

  merge_sort(order, tmp, ngroups, cmp_place, g);

  uint64_t peak = 0;
  for (size_t k = 0; k < ngroups; k++) {
    pt_mgroup *cur = &g[order[k]];
    cur->offset = 0;
    if (cur->size > 0) {
      size_t nc = 0;
      for (size_t q = 0; q < k; q++) {
        const pt_mgroup *o = &g[order[q]];
        if (groups_conflict(cur, o)) conf[nc++] = order[q];
      }
      merge_sort(conf, tmp, nc, cmp_offset, g);
      uint64_t end = 0, best = 0, best_gap = UINT64_MAX;
      for (size_t a = 0; a < nc; a++) {
        const pt_mgroup *o = &g[conf[a]];
        if (o->offset > end) {
          uint64_t gap = o->offset - end;
          if (gap >= cur->size && gap < best_gap) {
            best_gap = gap;
            best = end;
          }
        }
        if (o->offset + o->size > end) end = o->offset + o->size; /* checked when placed */
      }
      if (best_gap == UINT64_MAX) best = end;
      uint64_t top;
      if (!pt_add_u64(best, cur->size, &top) || top > SIZE_MAX) {
        st = pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan: arena size overflows");
        goto done;
      }
      cur->offset = best;
      if (top > peak) peak = top;
    }
  }

  for (size_t i = 0; i < n; i++) {
    locs[i].memory_id = 1;
    locs[i].offset = g[root[i]].offset;
  }
  arenas[0] = 0;
  arenas[1] = peak;
  out->count = n;
  out->locs = locs;
  out->num_arenas = 1;
  out->arena_sizes = arenas;
  out->alignment = alignment;
  out->no_reuse_bytes = sum;
  out->max_live_bytes = max_live;
  out->allocator = allocator;
  locs = NULL;
  arenas = NULL;
  goto done;

oom:
  st = pt_fail(e, PTERA_MEMORY_ALLOCATION_FAILED, "memplan: out of memory for %zu buffers", n);
done:
  pt_free(allocator, root);
  pt_free(allocator, g);
  pt_free(allocator, order);
  pt_free(allocator, conf);
  pt_free(allocator, tmp);
  pt_free(allocator, locs);
  pt_free(allocator, arenas);
  return st;
}

void pt_memplan_stats(const pt_memplan *plan, pt_memplan_summary *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!plan) return;
  out->num_arenas = plan->num_arenas;
  for (uint32_t a = 1; plan->arena_sizes && a <= plan->num_arenas; a++)
    out->peak_bytes += plan->arena_sizes[a];
  out->no_reuse_bytes = plan->no_reuse_bytes;
  out->max_live_bytes = plan->max_live_bytes;
}

ptera_status pt_memplan_verify(const pt_membuf *bufs, size_t n, const pt_memplan *plan,
                               const ptera_allocator *allocator, pt_err *e) {
  if (!plan) return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan verify: no plan");
  if (n > 0 && !bufs) return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan verify: no buffers");
  if (plan->count != n)
    return pt_fail(e, PTERA_INVALID_PROGRAM, "memplan verify: plan has %zu buffers, expected %zu",
                   plan->count, n);
  size_t align = plan->alignment;
  if (align == 0 || (align & (align - 1)) != 0)
    return pt_fail(e, PTERA_INVALID_PROGRAM, "memplan verify: bad alignment %zu", align);
  if (n == 0) return PTERA_OK;
  if (!plan->locs || !plan->arena_sizes || plan->num_arenas == 0)
    return pt_fail(e, PTERA_INVALID_PROGRAM, "memplan verify: plan has no locations or arenas");
  if (n > SIZE_MAX / sizeof(pt_mgroup))
    return pt_fail(e, PTERA_INVALID_ARGUMENT, "memplan verify: too many buffers (%zu)", n);

  ptera_status st = PTERA_OK;
  size_t *root = pt_calloc(allocator, n, sizeof *root, _Alignof(size_t));
  pt_mgroup *g = pt_calloc(allocator, n, sizeof *g, _Alignof(pt_mgroup));
  if (!root || !g) {
    st = pt_fail(e, PTERA_MEMORY_ALLOCATION_FAILED, "memplan verify: out of memory");
    goto done;
  }
  for (size_t i = 0; i < n; i++) root[i] = SIZE_MAX;
  if ((st = resolve_roots(bufs, n, root, e)) != PTERA_OK) goto done;
  if ((st = build_groups(bufs, n, 1, root, g, e)) != PTERA_OK) goto done;

  for (size_t i = 0; i < n; i++) {
    const pt_memloc *l = &plan->locs[i];
    const pt_memloc *rl = &plan->locs[root[i]];
    uint64_t top;
    if (l->memory_id == 0 || l->memory_id > plan->num_arenas) {
      st = pt_fail(e, PTERA_INVALID_PROGRAM, "memplan verify: buffer %zu: bad memory_id %lu", i,
                   (unsigned long)l->memory_id);
      goto done;
    }
    if ((l->offset & (align - 1)) != 0) {
      st = pt_fail(e, PTERA_INVALID_PROGRAM,
                   "memplan verify: buffer %zu: offset %llu not aligned to %zu", i,
                   (unsigned long long)l->offset, align);
      goto done;
    }
    if (!pt_add_u64(l->offset, bufs[i].nbytes, &top) || top > plan->arena_sizes[l->memory_id]) {
      st = pt_fail(e, PTERA_INVALID_PROGRAM, "memplan verify: buffer %zu: outside arena %lu", i,
                   (unsigned long)l->memory_id);
      goto done;
    }
    if (l->memory_id != rl->memory_id || l->offset != rl->offset) {
      st = pt_fail(e, PTERA_INVALID_PROGRAM,
                   "memplan verify: view %zu not at its base %zu's location", i, root[i]);
      goto done;
    }
  }
  /* Pairwise: buffers of different groups that conflict in time must be
   * disjoint in memory (exact sizes, not aligned ones). */
  for (size_t i = 0; i < n; i++) {
    if (bufs[i].nbytes == 0) continue;
    const pt_mgroup *gi = &g[root[i]];
    for (size_t j = i + 1; j < n; j++) {
      if (bufs[j].nbytes == 0 || root[i] == root[j]) continue;
      const pt_mgroup *gj = &g[root[j]];
      bool live = gi->pinned || gj->pinned || (gi->first <= gj->last && gj->first <= gi->last);
      if (!live || plan->locs[i].memory_id != plan->locs[j].memory_id) continue;
      uint64_t ai = plan->locs[i].offset, aj = plan->locs[j].offset;
      /* Both ends are within the arena (checked above), so no overflow. */
      if (ai < aj + bufs[j].nbytes && aj < ai + bufs[i].nbytes) {
        st = pt_fail(e, PTERA_INVALID_PROGRAM,
                     "memplan verify: buffers %zu and %zu are live together and overlap", i, j);
        goto done;
      }
    }
  }
done:
  pt_free(allocator, root);
  pt_free(allocator, g);
  return st;
}

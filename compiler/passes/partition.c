/* Grouping a method's calls into backend partitions (partition.h). */
#include <stdlib.h>

#include "mutation.h"
#include "partition.h"

/* A read: node `node` reads value `value`, last written (by alias class) by
 * node `writer` (-1: nothing wrote it) as value `written`. */
typedef struct pc_read {
  uint32_t node;
  int32_t value, writer, written;
} pc_read;

typedef struct scan {
  pc_graph *g;
  const pc_mutation *m;
  uint32_t k;
  bool writes_pass;
  bool forced_cpu; /* the node writes mutable state or updates in place */
  int32_t *last_writer, *last_value, *reader_head; /* per alias root */
  uint32_t *rd_node;
  int32_t *rd_next;
  uint32_t nrd, rd_cap;
  uint32_t *e_from, *e_to;
  uint32_t ne, e_cap;
  pc_read *reads;
  uint32_t nreads, reads_cap;
  bool oom;
} scan;

static bool grow(const ptera_allocator *a, void **p, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap) return true;
  uint32_t cap2 = *cap ? *cap : 64;
  while (cap2 < need) {
    if (cap2 > UINT32_MAX / 2) return false;
    cap2 *= 2;
  }
  void *q = pt_alloc(a, (size_t)cap2 * elem, 0);
  if (!q) return false;
  if (*p) memcpy(q, *p, (size_t)*cap * elem);
  pt_free(a, *p);
  *p = q;
  *cap = cap2;
  return true;
}

static void add_edge(scan *s, uint32_t from, uint32_t to) {
  if (from == to || s->oom) return;
  uint32_t cap = s->e_cap;
  void *f = s->e_from, *t = s->e_to;
  if (!grow(s->g->allocator, &f, &cap, s->ne + 1, sizeof *s->e_from) ||
      !grow(s->g->allocator, &t, &s->e_cap, s->ne + 1, sizeof *s->e_to)) {
    s->e_from = f;
    s->e_to = t;
    s->oom = true;
    return;
  }
  s->e_from = f;
  s->e_to = t;
  s->e_from[s->ne] = from;
  s->e_to[s->ne++] = to;
}

static void visit(void *ctx, int32_t v, bool written) {
  scan *s = ctx;
  const pc_graph *g = s->g;
  if (g->values[v].kind != PC_G_TENSOR || written != s->writes_pass || s->oom) return;
  int32_t r = pc_graph_alias_root(g, v);
  int32_t w = s->last_writer[r];
  if (!written) {
    if (w >= 0) add_edge(s, (uint32_t)w, s->k);
    if (!grow(g->allocator, (void **)&s->reads, &s->reads_cap, s->nreads + 1, sizeof *s->reads)) {
      s->oom = true;
      return;
    }
    s->reads[s->nreads++] = (pc_read){s->k, v, w, w >= 0 ? s->last_value[r] : -1};
    if (s->reader_head[r] >= 0 && s->rd_node[s->reader_head[r]] == s->k) return;
    uint32_t cap = s->rd_cap;
    void *nodes = s->rd_node, *next = s->rd_next;
    if (!grow(g->allocator, &nodes, &cap, s->nrd + 1, sizeof *s->rd_node) ||
        !grow(g->allocator, &next, &s->rd_cap, s->nrd + 1, sizeof *s->rd_next)) {
      s->rd_node = nodes;
      s->rd_next = next;
      s->oom = true;
      return;
    }
    s->rd_node = nodes;
    s->rd_next = next;
    s->rd_node[s->nrd] = s->k;
    s->rd_next[s->nrd] = s->reader_head[r];
    s->reader_head[r] = (int32_t)s->nrd++;
    return;
  }
  if (s->m->producer[v] != (int32_t)s->k || s->m->state_root[r]) s->forced_cpu = true;
  if (w >= 0) add_edge(s, (uint32_t)w, s->k);
  for (int32_t e = s->reader_head[r]; e >= 0; e = s->rd_next[e]) add_edge(s, s->rd_node[e], s->k);
  s->reader_head[r] = -1;
  s->last_writer[r] = (int32_t)s->k;
  s->last_value[r] = v;
}

/* Compressed adjacency: list[start[k] .. start[k + 1]) for node k. */
static bool csr(const ptera_allocator *a, uint32_t n, uint32_t ne, const uint32_t *key,
                const uint32_t *val, uint32_t **start, uint32_t **list) {
  *start = pt_calloc(a, (size_t)n + 1, sizeof **start, 0);
  *list = pt_alloc(a, (size_t)(ne ? ne : 1) * sizeof **list, 0);
  if (!*start || !*list) return false;
  for (uint32_t e = 0; e < ne; e++) (*start)[key[e] + 1]++;
  for (uint32_t k = 0; k < n; k++) (*start)[k + 1] += (*start)[k];
  uint32_t *fill = pt_alloc(a, (size_t)(n ? n : 1) * sizeof *fill, 0);
  if (!fill) return false;
  memcpy(fill, *start, (size_t)n * sizeof *fill);
  for (uint32_t e = 0; e < ne; e++) (*list)[fill[key[e]]++] = val[e];
  pt_free(a, fill);
  return true;
}

typedef struct levels {
  uint32_t n;
  const uint8_t *sup;
  const uint32_t *ps, *pl; /* predecessors */
  const uint32_t *ss, *sl; /* successors */
  const int32_t *groups;   /* NULL or per node */
  uint32_t ngroups;
  uint32_t *lvl;
  uint32_t *gmax; /* per group */
} levels;

/* Levels as early as the dependencies allow, every group at its members'
 * largest. Returns false when the groups do not settle (a group whose
 * members depend on each other through a CPU call). */
static bool early_levels(levels *L) {
  for (uint32_t round = 0; round < 32; round++) {
    bool changed = false;
    for (uint32_t k = 0; k < L->n; k++) {
      uint32_t v = 0;
      for (uint32_t e = L->ps[k]; e < L->ps[k + 1]; e++) {
        uint32_t p = L->pl[e];
        uint32_t c = L->lvl[p] + (L->sup[k] && !L->sup[p] ? 1u : 0u);
        if (c > v) v = c;
      }
      int32_t gid = L->groups ? L->groups[k] : -1;
      if (gid >= 0 && L->sup[k] && L->gmax[gid] > v) v = L->gmax[gid];
      L->lvl[k] = v;
    }
    for (uint32_t k = 0; k < L->n; k++) {
      int32_t gid = L->groups ? L->groups[k] : -1;
      if (gid >= 0 && L->sup[k] && L->lvl[k] > L->gmax[gid]) {
        L->gmax[gid] = L->lvl[k];
        changed = true;
      }
    }
    if (!changed) return true;
  }
  return false;
}

/* A supported call (not in a group) moves up to the level of the supported
 * call it feeds when every call it feeds is at that level or above. */
static void sink_levels(levels *L) {
  for (uint32_t k = L->n; k-- > 0;) {
    if (!L->sup[k] || (L->groups && L->groups[k] >= 0) || L->ss[k] == L->ss[k + 1]) continue;
    uint32_t hi = UINT32_MAX;
    for (uint32_t e = L->ss[k]; e < L->ss[k + 1]; e++)
      if (L->lvl[L->sl[e]] < hi) hi = L->lvl[L->sl[e]];
    if (hi <= L->lvl[k]) continue;
    for (uint32_t e = L->ss[k]; e < L->ss[k + 1]; e++)
      if (L->sup[L->sl[e]] && L->lvl[L->sl[e]] == hi) {
        L->lvl[k] = hi;
        break;
      }
  }
}

static uint32_t find(uint32_t *uf, uint32_t x) {
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

static void unite(uint32_t *uf, uint32_t a, uint32_t b) {
  a = find(uf, a);
  b = find(uf, b);
  if (a < b) uf[b] = a; /* the root is the lowest node index */
  else if (b < a) uf[a] = b;
}

typedef struct pc_pair { /* value v belongs to partition p; seq orders them */
  uint32_t p, seq;
  int32_t v;
} pc_pair;

static int by_part_value(const void *x, const void *y) {
  const pc_pair *a = x, *b = y;
  if (a->p != b->p) return a->p < b->p ? -1 : 1;
  if (a->v != b->v) return a->v < b->v ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int by_part_seq(const void *x, const void *y) {
  const pc_pair *a = x, *b = y;
  if (a->p != b->p) return a->p < b->p ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Sorts pairs, keeps each (p, v) once at its first seq, and hands each
 * partition its slice: *lists[p] / *counts[p] point into one array. */
static int32_t *distribute(pc_graph *g, pc_pair *pairs, uint32_t n, pc_partitioning *P, bool inputs) {
  qsort(pairs, n, sizeof *pairs, by_part_value);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < n; i++)
    if (!kept || pairs[kept - 1].p != pairs[i].p || pairs[kept - 1].v != pairs[i].v) pairs[kept++] = pairs[i];
  qsort(pairs, kept, sizeof *pairs, by_part_seq);
  int32_t *all = pt_alloc(g->allocator, (size_t)(kept ? kept : 1) * sizeof *all, 0);
  if (!all) return NULL;
  for (uint32_t i = 0; i < kept; i++) {
    all[i] = pairs[i].v;
    pc_part *q = &P->parts[pairs[i].p];
    if (inputs) {
      if (!q->ninputs) q->inputs = all + i;
      q->ninputs++;
    } else {
      if (!q->noutputs) q->outputs = all + i;
      q->noutputs++;
    }
  }
  return all;
}

typedef struct work {
  scan s;
  uint8_t *sup;
  uint32_t *ps, *pl, *ss, *sl, *lvl, *gmax, *uf;
  pc_pair *pairs;
} work;

static void free_work(pc_graph *g, work *w) {
  const ptera_allocator *a = g->allocator;
  void *ptrs[] = {w->s.last_writer, w->s.last_value, w->s.reader_head, w->s.rd_node, w->s.rd_next,
                  w->s.e_from, w->s.e_to, w->s.reads, w->sup, w->ps, w->pl, w->ss, w->sl,
                  w->lvl, w->gmax, w->uf, w->pairs};
  for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) pt_free(a, ptrs[i]);
}

static bool live_call(const pc_graph *g, uint32_t k) {
  return !g->nodes[k].removed && g->nodes[k].kind == PC_N_CALL;
}

/* Collects each partition's inputs and outputs from the recorded reads and
 * the method outputs. */
static bool collect_io(pc_graph *g, work *w, pc_partitioning *P) {
  const scan *s = &w->s;
  uint32_t cap = s->nreads + g->noutputs * 4 + 1, n = 0;
  for (uint32_t i = 0; i < g->noutputs; i++) {
    const pc_gvalue *x = &g->values[g->outputs[i]];
    if (x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS) cap += x->u.tensors.len;
  }
  w->pairs = pt_alloc(g->allocator, (size_t)cap * sizeof *w->pairs, 0);
  if (!w->pairs) return false;
  for (uint32_t i = 0; i < s->nreads; i++) {
    const pc_read *r = &s->reads[i];
    int32_t pk = P->part[r->node], pw = r->writer >= 0 ? P->part[r->writer] : -1;
    bool constant = r->writer < 0 && g->values[r->value].u.t.store == PC_T_CONST;
    if (pk >= 0 && !constant && (r->writer < 0 || pw != pk))
      w->pairs[n++] = (pc_pair){(uint32_t)pk, i, r->value};
  }
  P->blocks[1] = distribute(g, w->pairs, n, P, true);
  if (!P->blocks[1]) return false;
  n = 0;
  for (uint32_t i = 0; i < s->nreads; i++) {
    const pc_read *r = &s->reads[i];
    int32_t pw = r->writer >= 0 ? P->part[r->writer] : -1;
    if (pw >= 0 && pw != P->part[r->node]) w->pairs[n++] = (pc_pair){(uint32_t)pw, r->writer, r->written};
  }
  for (uint32_t i = 0; i < g->noutputs; i++) {
    const pc_gvalue *x = &g->values[g->outputs[i]];
    uint32_t len = x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS ? x->u.tensors.len : 1;
    for (uint32_t j = 0; j < len; j++) {
      int32_t o = x->kind == PC_G_TENSOR                                  ? g->outputs[i]
                  : x->kind == PC_G_TENSORS || x->kind == PC_G_OPT_TENSORS ? x->u.tensors.ids[j]
                                                                           : -1;
      if (o < 0 || g->values[o].kind != PC_G_TENSOR) continue;
      int32_t r = pc_graph_alias_root(g, o), wr = s->last_writer[r];
      if (wr >= 0 && P->part[wr] >= 0)
        w->pairs[n++] = (pc_pair){(uint32_t)P->part[wr], (uint32_t)wr, s->last_value[r]};
    }
  }
  P->blocks[2] = distribute(g, w->pairs, n, P, false);
  return P->blocks[2] != NULL;
}

static ptera_status oom(pc_graph *g, work *w, pc_partitioning *P) {
  free_work(g, w);
  pc_partitioning_free(g, P);
  return pt_fail(&g->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory partitioning '%s'", g->name);
}

ptera_status pc_partition(pc_graph *g, pc_support_fn supported, void *ctx, const int32_t *groups,
                          pc_partitioning *out) {
  memset(out, 0, sizeof *out);
  const ptera_allocator *a = g->allocator;
  pc_mutation m;
  ptera_status st = pc_mutation_analyze(g, &m);
  if (st != PTERA_OK) return st;
  uint32_t n = g->nnodes, nv = g->nvalues ? g->nvalues : 1, n1 = n ? n : 1;
  work w;
  memset(&w, 0, sizeof w);
  scan *s = &w.s;
  s->g = g;
  s->m = &m;
  s->last_writer = pt_alloc(a, (size_t)nv * sizeof *s->last_writer, 0);
  s->last_value = pt_alloc(a, (size_t)nv * sizeof *s->last_value, 0);
  s->reader_head = pt_alloc(a, (size_t)nv * sizeof *s->reader_head, 0);
  w.sup = pt_calloc(a, n1, 1, 0);
  out->part = pt_alloc(a, (size_t)n1 * sizeof *out->part, 0);
  if (!s->last_writer || !s->last_value || !s->reader_head || !w.sup || !out->part) {
    pc_mutation_free(g, &m);
    return oom(g, &w, out);
  }
  for (uint32_t v = 0; v < nv; v++) s->last_writer[v] = s->last_value[v] = s->reader_head[v] = -1;

  /* Dependencies, and which calls the backend may take. */
  for (uint32_t k = 0; k < n && !s->oom; k++) {
    out->part[k] = -1;
    if (!live_call(g, k)) continue;
    s->k = k;
    s->forced_cpu = false;
    s->writes_pass = false;
    pc_graph_visit_args(g, &g->nodes[k], visit, s);
    s->writes_pass = true;
    pc_graph_visit_args(g, &g->nodes[k], visit, s);
    w.sup[k] = !s->forced_cpu && supported(ctx, g, k);
  }
  pc_mutation_free(g, &m);
  if (s->oom) return oom(g, &w, out);

  /* A call that reads no runtime value, directly or through other calls
   * (only constants), is left to the CPU: constant propagation folds it, and
   * a partition of such calls would be a delegate without inputs. Every
   * partition then reads a runtime value from outside: its earliest call
   * reads one, and whatever wrote it comes earlier, outside. */
  uint8_t *runtime = pt_calloc(a, n1, 1, 0);
  if (!runtime) return oom(g, &w, out);
  for (uint32_t i = 0; i < s->nreads; i++) {
    const pc_read *r = &s->reads[i];
    if (r->writer >= 0 ? runtime[r->writer] : g->values[r->value].u.t.store != PC_T_CONST)
      runtime[r->node] = 1;
  }
  for (uint32_t k = 0; k < n; k++) w.sup[k] = w.sup[k] && runtime[k];
  pt_free(a, runtime);

  /* Groups: all supported, or all on the CPU. */
  uint32_t ngroups = 0;
  if (groups)
    for (uint32_t k = 0; k < n; k++)
      if (live_call(g, k) && groups[k] >= 0 && (uint32_t)groups[k] + 1 > ngroups)
        ngroups = (uint32_t)groups[k] + 1;
  w.lvl = pt_calloc(a, n1, sizeof *w.lvl, 0);
  w.gmax = pt_calloc(a, ngroups ? ngroups : 1, sizeof *w.gmax, 0);
  w.uf = pt_alloc(a, (size_t)n1 * sizeof *w.uf, 0);
  if (!w.lvl || !w.gmax || !w.uf) return oom(g, &w, out);
  if (ngroups) {
    uint8_t *ok = (uint8_t *)w.uf; /* scratch: ngroups <= n bytes */
    memset(ok, 1, ngroups);
    for (uint32_t k = 0; k < n; k++)
      if (live_call(g, k) && groups[k] >= 0 && !w.sup[k]) ok[groups[k]] = 0;
    for (uint32_t k = 0; k < n; k++)
      if (live_call(g, k) && groups[k] >= 0 && !ok[groups[k]]) w.sup[k] = 0;
  }

  /* CPU calls keep their order: each depends on the CPU call before it.
   * Levels; groups that cannot share one level (their members depend on
   * each other through a CPU call) go to the CPU, and levels are redone
   * with the CPU chain including them. */
  uint32_t data_edges = s->ne;
  levels L = {n, w.sup, NULL, NULL, NULL, NULL, ngroups ? groups : NULL, ngroups, w.lvl, w.gmax};
  for (;;) {
    s->ne = data_edges;
    int32_t prev = -1;
    for (uint32_t k = 0; k < n; k++) {
      if (!live_call(g, k) || w.sup[k]) continue;
      if (prev >= 0) add_edge(s, (uint32_t)prev, k);
      prev = (int32_t)k;
    }
    pt_free(a, w.ps), pt_free(a, w.pl), pt_free(a, w.ss), pt_free(a, w.sl);
    w.ps = w.pl = w.ss = w.sl = NULL;
    if (s->oom || !csr(a, n, s->ne, s->e_to, s->e_from, &w.ps, &w.pl) ||
        !csr(a, n, s->ne, s->e_from, s->e_to, &w.ss, &w.sl))
      return oom(g, &w, out);
    L.ps = w.ps, L.pl = w.pl, L.ss = w.ss, L.sl = w.sl;
    memset(w.gmax, 0, (size_t)(ngroups ? ngroups : 1) * sizeof *w.gmax);
    if (early_levels(&L)) break;
    for (uint32_t k = 0; k < n; k++)
      if (live_call(g, k) && groups[k] >= 0) w.sup[k] = 0;
  }
  sink_levels(&L);

  /* Partitions: supported calls joined at equal level, and groups. */
  for (uint32_t k = 0; k < n; k++) w.uf[k] = k;
  for (uint32_t e = 0; e < s->ne; e++) {
    uint32_t p = s->e_from[e], k = s->e_to[e];
    if (w.sup[p] && w.sup[k] && w.lvl[p] == w.lvl[k]) unite(w.uf, p, k);
  }
  if (ngroups) {
    uint32_t *first = w.gmax; /* reuse: first member + 1 per group */
    memset(first, 0, (size_t)ngroups * sizeof *first);
    for (uint32_t k = 0; k < n; k++) {
      if (!w.sup[k] || groups[k] < 0) continue;
      if (first[groups[k]]) unite(w.uf, first[groups[k]] - 1, k);
      else first[groups[k]] = k + 1;
    }
  }
  /* Number partitions by their earliest call. */
  uint32_t kept = 0;
  for (uint32_t k = 0; k < n; k++) {
    if (!w.sup[k]) continue;
    uint32_t r = find(w.uf, k);
    if (r == k) out->part[k] = (int32_t)kept++;
    else out->part[k] = out->part[r];
  }
  out->nparts = kept;
  out->parts = pt_calloc(a, kept ? kept : 1, sizeof *out->parts, 0);
  uint32_t *nodes_all = pt_alloc(a, (size_t)n1 * sizeof *nodes_all, 0);
  out->blocks[0] = nodes_all;
  if (!out->parts || !nodes_all) return oom(g, &w, out);
  for (uint32_t k = 0; k < n; k++)
    if (out->part[k] >= 0) out->parts[out->part[k]].nnodes++;
  uint32_t at = 0;
  for (uint32_t p = 0; p < kept; p++) {
    out->parts[p].nodes = nodes_all + at;
    at += out->parts[p].nnodes;
    out->parts[p].nnodes = 0;
  }
  for (uint32_t k = 0; k < n; k++)
    if (out->part[k] >= 0) {
      pc_part *q = &out->parts[out->part[k]];
      q->nodes[q->nnodes++] = k;
    }
  if (!collect_io(g, &w, out)) return oom(g, &w, out);
  st = pc_partition_schedule(g, w.ps, w.pl, w.ss, w.sl, out);
  free_work(g, &w);
  if (st != PTERA_OK) pc_partitioning_free(g, out);
  return st;
}

void pc_partitioning_free(pc_graph *g, pc_partitioning *p) {
  const ptera_allocator *a = g->allocator;
  for (int i = 0; i < 3; i++) pt_free(a, p->blocks[i]);
  pt_free(a, p->part);
  pt_free(a, p->parts);
  pt_free(a, p->order);
  memset(p, 0, sizeof *p);
}

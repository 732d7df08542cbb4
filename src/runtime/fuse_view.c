/* Load-time view elision (fuse.h): a copy that only reshapes contiguous data
 *
 *      out = view_copy(self, ...)   (squeeze_copy, unsqueeze_copy, alias_copy,
 *                                    expand_copy to as many elements, permute_copy
 *                                    and transpose_copy that move only size-1 dims)
 *
 * becomes an aliasing group that points out at self's bytes, as
 * executorch_prim::et_view does (the compiler's rule: compiler/passes/
 * view_elide.c). The program cannot tell when out holds self's bytes for
 * all of out's life:
 *   - self and out: one dtype, static shapes, as many elements, the
 *     default dim order; out is planned, not a method input or output, and
 *     no instruction but this one writes it or a view of it, nor names it before;
 *   - from the copy to the last instruction naming out (or a view of it),
 *     nothing writes or frees self's bytes: self, the value it views, the
 *     views of that, or planned memory overlapping any of them (a delegate
 *     naming one counts as writing it);
 *   - no other value in out's planned memory is read after the copy before
 *     it is written (it would have seen the copy's bytes). */
#include <string.h>

#include "runtime/fuse.h"

#define MAX_REGIONS 8u

static const char *const VIEW_OPS[][2] = {
    {"aten::view_copy.out", "elided:view_copy"},
    {"aten::squeeze_copy.dims_out", "elided:squeeze_copy"},
    {"aten::squeeze_copy.dim_out", "elided:squeeze_copy"},
    {"aten::squeeze_copy.out", "elided:squeeze_copy"},
    {"aten::unsqueeze_copy.out", "elided:unsqueeze_copy"},
    {"aten::alias_copy.out", "elided:alias_copy"},
    {"aten::expand_copy.out", "elided:expand_copy"},
    {"aten::permute_copy.out", "elided:permute_copy"},
    {"aten::transpose_copy.int_out", "elided:transpose_copy"},
};

static const char *view_name(const char *op) {
  for (size_t i = 0; i < sizeof VIEW_OPS / sizeof VIEW_OPS[0]; i++)
    if (strcmp(op, VIEW_OPS[i][0]) == 0) return VIEW_OPS[i][1];
  return NULL;
}

static const pf_tensor *tensor_of(const pf_plan *p, int32_t v) {
  return p->values[v].type == PF_VAL_TENSOR ? p->values[v].u.tensor : NULL;
}

static uint64_t numel(const pf_tensor *t) {
  uint64_t n = 1;
  for (uint32_t d = 0; d < t->dim; d++) n *= (uint64_t)t->sizes[d];
  return n;
}

static bool plain(const pf_tensor *t) {
  if (t->dynamism != 0) return false;
  for (uint32_t d = 0; d < t->dim; d++)
    if (t->dim_order[d] != d) return false;
  return true;
}

static bool int_arg(const pf_plan *p, int32_t v, int64_t *out) {
  if (p->values[v].type != PF_VAL_INT) return false;
  *out = p->values[v].u.i;
  return true;
}

/* Dim d of a rank-n tensor, negative counting from the end; false when out of range. */
static bool norm_dim(int64_t d, uint32_t n, uint32_t *out) {
  if (d < 0) d += n;
  if (d < 0 || d >= (int64_t)n) return false;
  *out = (uint32_t)d;
  return true;
}

/* permute_copy / transpose_copy keep the bytes in order when the dims of
 * size above 1 stay in their order; any other op here is a reshape. */
static bool keeps_order(const ptera_method *m, const pf_instr *in, const pf_tensor *st) {
  const pf_plan *p = m->plan;
  const char *op = m->op_names[in->a];
  uint32_t perm[PTERA_MAX_DIM], n = st->dim;
  if (strcmp(op, "aten::permute_copy.out") == 0) {
    const pf_value *l = &p->values[in->args[1]];
    if (in->nargs != 4 || l->type != PF_VAL_INT_LIST || l->u.idx.len != n) return false;
    for (uint32_t i = 0; i < n; i++) {
      int64_t d;
      if (!int_arg(p, l->u.idx.items[i], &d) || !norm_dim(d, n, &perm[i])) return false;
    }
  } else if (strcmp(op, "aten::transpose_copy.int_out") == 0) {
    int64_t d0, d1;
    uint32_t a, b;
    if (in->nargs != 5 || !int_arg(p, in->args[1], &d0) || !int_arg(p, in->args[2], &d1) ||
        !norm_dim(d0, n, &a) || !norm_dim(d1, n, &b))
      return false;
    for (uint32_t i = 0; i < n; i++) perm[i] = i;
    perm[a] = b;
    perm[b] = a;
  } else {
    return true;
  }
  uint32_t seen = 0;
  for (uint32_t i = 0; i < n; i++) seen |= 1u << perm[i];
  if (seen != (1u << n) - 1u) return false; /* not a permutation: the kernel's error */
  int64_t prev = -1;
  for (uint32_t i = 0; i < n; i++) {
    if (st->sizes[perm[i]] == 1) continue;
    if ((int64_t)perm[i] < prev) return false;
    prev = perm[i];
  }
  return true;
}

/* The bytes self shows: its root and every planned region of a value of
 * that root. */
typedef struct bytes_of {
  int32_t root;
  const pf_tensor *region[MAX_REGIONS];
  uint32_t nregions;
} bytes_of;

static bool collect(const ptera_method *m, const pr_alias_map *am, int32_t self, bytes_of *b) {
  b->root = pr_alias_root(m, am, self);
  b->nregions = 0;
  for (uint32_t x = 0; x < m->plan->nvalues; x++) {
    const pf_tensor *t = pr_fuse_planned(m->plan, (int32_t)x);
    if (!t || pr_alias_root(m, am, (int32_t)x) != b->root) continue;
    if (b->nregions == MAX_REGIONS) return false;
    b->region[b->nregions++] = t;
  }
  return true;
}

/* Value w is (a view of) those bytes or planned over them. */
static bool touches(const ptera_method *m, const pr_alias_map *am, const bytes_of *b, int32_t w) {
  if (w < 0) return false;
  int32_t r = pr_alias_root(m, am, w);
  if (r == b->root) return true;
  const pf_tensor *t[2] = {pr_fuse_planned(m->plan, w), pr_fuse_planned(m->plan, r)};
  for (uint32_t i = 0; i < 2; i++)
    for (uint32_t j = 0; t[i] && j < b->nregions; j++)
      if (pr_fuse_overlap(t[i], b->region[j])) return true;
  return false;
}

static bool touches_arg(const ptera_method *m, const pr_alias_map *am, const bytes_of *b,
                        int32_t arg) {
  const pf_value *a = &m->plan->values[arg];
  if (a->type == PF_VAL_TENSOR_LIST || a->type == PF_VAL_OPT_TENSOR_LIST) {
    for (uint32_t i = 0; i < a->u.idx.len; i++)
      if (touches(m, am, b, a->u.idx.items[i])) return true;
    return false;
  }
  return touches(m, am, b, arg);
}

/* Instruction in (at flat position q) may write or free those bytes. */
static bool clobbers(const ptera_method *m, const pr_alias_map *am, const bytes_of *b,
                     const pf_instr *in) {
  if (in->type == PF_INSTR_FREE) return touches(m, am, b, in->a);
  if (in->type == PF_INSTR_DELEGATE) {
    for (uint32_t j = 0; j < in->nargs; j++)
      if (touches_arg(m, am, b, in->args[j])) return true;
    return false;
  }
  if (in->type != PF_INSTR_KERNEL || in->nargs == 0 ||
      strcmp(m->op_names[in->a], "executorch_prim::et_view.default") == 0)
    return false;
  return touches_arg(m, am, b, in->args[m->writes_first[in->a] ? 0 : in->nargs - 1]);
}

/* An aliasing group with no kernel: writes nothing. */
static bool writes_nothing(const ptera_method *m, uint32_t c, uint32_t k) {
  const pr_fused *g = pr_method_fused_at(m, c, k);
  return g && g->run == pr_alias_run && !((const pr_alias_state *)g->state)->fn;
}

static bool elidable(ptera_method *m, const pr_alias_map *am, uint32_t c, uint32_t k) {
  const pf_plan *p = m->plan;
  const pf_instr *in = &p->chains[c].instrs[k];
  int32_t self = in->args[0], out = in->args[in->nargs - 2];
  if (in->args[in->nargs - 1] != out || self == out || am->src[out] >= 0) return false;
  const pf_tensor *st = tensor_of(p, self), *ot = tensor_of(p, out);
  if (!st || !ot || st->scalar_type != ot->scalar_type || !plain(st) || !plain(ot) ||
      numel(st) != numel(ot) || !ot->nbytes || !keeps_order(m, in, st) || !pr_fuse_planned(p, out) || pr_fuse_is_io(p, out))
    return false;
  const size_t at = m->chain_base[c] + k;
  size_t last = at;
  for (uint32_t c2 = 0; c2 < p->nchains; c2++)
    for (uint32_t k2 = 0; k2 < p->chains[c2].ninstrs; k2++) {
      size_t q = m->chain_base[c2] + k2;
      const pf_instr *x = &p->chains[c2].instrs[k2];
      if (q == at || !pr_alias_names(m, am, x, out)) continue;
      if (q < at || pr_alias_writes(m, am, x, out)) return false;
      last = q;
    }
  bytes_of b;
  if (!collect(m, am, self, &b)) return false;
  for (uint32_t c2 = c; c2 < p->nchains; c2++)
    for (uint32_t k2 = c2 == c ? k + 1 : 0; k2 < p->chains[c2].ninstrs; k2++) {
      if (m->chain_base[c2] + k2 > last) goto lifetime_ok;
      if (writes_nothing(m, c2, k2)) continue;
      if (clobbers(m, am, &b, &p->chains[c2].instrs[k2])) return false;
    }
lifetime_ok:;
  const pf_tensor *planned_out = pr_fuse_planned(p, out);
  for (uint32_t x = 0; x < p->nvalues; x++) {
    const pf_tensor *xt = pr_fuse_planned(p, (int32_t)x);
    if ((int32_t)x == out || !xt || !pr_fuse_overlap(xt, planned_out) ||
        pr_alias_from(m, am, (int32_t)x, out))
      continue;
    if (pr_fuse_read_after(m, (int32_t)x, c, k, 1)) return false;
  }
  return true;
}

ptera_status pr_fuse_views(ptera_method *m, pr_alias_map *am) {
  const pf_plan *p = m->plan;
  for (uint32_t c = 0; c < p->nchains; c++)
    for (uint32_t k = 0; k < p->chains[c].ninstrs; k++) {
      const pf_instr *in = &p->chains[c].instrs[k];
      size_t at = m->chain_base[c] + k;
      if (in->type != PF_INSTR_KERNEL || in->nargs < 3 || am->covered[at]) continue;
      const char *name = view_name(m->op_names[in->a]);
      if (!name || !elidable(m, am, c, k)) continue;
      int32_t self = in->args[0], out = in->args[in->nargs - 2];
      ptera_value *args[2] = {&m->values[self], &m->values[out]};
      ptera_status st = pr_alias_install(m, c, k, name, args, 2, NULL, out, self);
      if (st != PTERA_OK) return st;
      am->src[out] = self;
      am->covered[at] = 1;
    }
  return PTERA_OK;
}

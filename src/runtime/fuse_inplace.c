/* In-place cache update (fuse.h): an exported KV-cache write
 *
 *      T = index_put(B, indices, values, accumulate)   (B a planned buffer)
 *      ... reads of T ...
 *      copy_(B, T)                                      (the buffer write-back)
 *
 * copies all of B into T, then T back into B. Where B is named by nothing
 * between the two, the update can happen in B itself: index_put runs with
 * B as its out (only the indexed rows are written), T shows B's bytes, and
 * copy_ has nothing to do. The program cannot tell when
 *   - B and T are planned, static, contiguous, of one dtype and shape, apart
 *     in memory, not method inputs or outputs; no view of B exists and no other
 *     planned value overlaps B;
 *   - the first instruction after index_put to name B is copy_(B, T);
 *   - no instruction but index_put writes T or a view of T, and none names
 *     one after the copy_ (T no longer differs from B there);
 *   - no other value in T's planned memory is read after index_put before it
 *     is written. */
#include <string.h>

#include "runtime/fuse.h"
#include "runtime/tables.h"

/* The op's kernel is the built-in one, which takes out == self as an
 * in-place update (a registered override might not). */
static bool builtin_kernel(const ptera_method *m, int32_t op) {
  for (size_t i = 0; i < pk_builtin_kernel_count; i++)
    if (strcmp(pk_builtin_kernels[i].name, m->op_names[op]) == 0)
      return pk_builtin_kernels[i].run == m->kernels[op];
  return false;
}

static const pf_tensor *plain(const pf_plan *p, int32_t v) {
  const pf_tensor *t = pr_fuse_planned(p, v);
  if (!t || t->dynamism != 0 || pr_fuse_is_io(p, v)) return NULL;
  for (uint32_t d = 0; d < t->dim; d++)
    if (t->dim_order[d] != d) return NULL;
  return t;
}

static bool same_shape(const pf_tensor *a, const pf_tensor *b) {
  return a->scalar_type == b->scalar_type && a->dim == b->dim &&
         memcmp(a->sizes, b->sizes, a->dim * sizeof a->sizes[0]) == 0;
}

/* B alone shows its bytes: no view of it, no other planned value over it. */
static bool alone(const ptera_method *m, const pr_alias_map *am, int32_t b, const pf_tensor *bt) {
  for (uint32_t x = 0; x < m->plan->nvalues; x++) {
    if ((int32_t)x == b) continue;
    const pf_tensor *xt = pr_fuse_planned(m->plan, (int32_t)x);
    if ((xt && pr_fuse_overlap(xt, bt)) || pr_alias_from(m, am, (int32_t)x, b)) return false;
  }
  return true;
}

/* The copy_(B, T) that must be the first instruction after (c, k) to name
 * B; sets its position. */
static bool find_copy(const ptera_method *m, const pr_alias_map *am, uint32_t c, uint32_t k,
                      int32_t b, int32_t t, uint32_t *cc, uint32_t *ck) {
  const pf_plan *p = m->plan;
  for (uint32_t c2 = c; c2 < p->nchains; c2++)
    for (uint32_t k2 = c2 == c ? k + 1 : 0; k2 < p->chains[c2].ninstrs; k2++) {
      const pf_instr *in = &p->chains[c2].instrs[k2];
      if (!pr_alias_names(m, am, in, b)) continue;
      if (am->covered[m->chain_base[c2] + k2] || in->type != PF_INSTR_KERNEL || in->nargs != 4 ||
          strcmp(m->op_names[in->a], "aten::copy_") != 0 || in->args[0] != b ||
          in->args[1] != t || in->args[3] != b)
        return false;
      *cc = c2;
      *ck = k2;
      return true;
    }
  return false;
}

static bool updatable(const ptera_method *m, const pr_alias_map *am, uint32_t c, uint32_t k,
                      uint32_t *cc, uint32_t *ck) {
  const pf_plan *p = m->plan;
  const pf_instr *in = &p->chains[c].instrs[k];
  int32_t b = in->args[0], t = in->args[4];
  const pf_tensor *bt = plain(p, b), *tt = plain(p, t);
  if (in->args[5] != t || b == t || !bt || !tt || !same_shape(bt, tt) || pr_fuse_overlap(bt, tt) ||
      m->prepares[in->a] || !builtin_kernel(m, in->a) || (m->values[b].u.tensor->flags & PTERA_TENSOR_CONST) ||
      am->src[t] >= 0 || !alone(m, am, b, bt) || !find_copy(m, am, c, k, b, t, cc, ck))
    return false;
  for (uint32_t j = 1; j < 4; j++)
    if (pr_fuse_refers(p, in->args[j], b) || pr_fuse_refers(p, in->args[j], t)) return false;
  const size_t at = m->chain_base[c] + k, copy_at = m->chain_base[*cc] + *ck;
  for (uint32_t c2 = 0; c2 < p->nchains; c2++)
    for (uint32_t k2 = 0; k2 < p->chains[c2].ninstrs; k2++) {
      size_t q = m->chain_base[c2] + k2;
      const pf_instr *x = &p->chains[c2].instrs[k2];
      if (q == at || q == copy_at || !pr_alias_names(m, am, x, t)) continue;
      if (q < at || q > copy_at || pr_alias_writes(m, am, x, t)) return false;
    }
  for (uint32_t x = 0; x < p->nvalues; x++) {
    const pf_tensor *xt = pr_fuse_planned(p, (int32_t)x);
    if ((int32_t)x == t || !xt || !pr_fuse_overlap(xt, tt)) continue;
    if (pr_fuse_read_after(m, (int32_t)x, c, k, 1)) return false;
  }
  return true;
}

ptera_status pr_fuse_inplace(ptera_method *m, pr_alias_map *am) {
  const pf_plan *p = m->plan;
  for (uint32_t c = 0; c < p->nchains; c++)
    for (uint32_t k = 0; k < p->chains[c].ninstrs; k++) {
      const pf_instr *in = &p->chains[c].instrs[k];
      uint32_t cc, ck;
      if (in->type != PF_INSTR_KERNEL || in->nargs != 6 || am->covered[m->chain_base[c] + k] ||
          strcmp(m->op_names[in->a], "aten::index_put.out") != 0 ||
          !updatable(m, am, c, k, &cc, &ck))
        continue;
      int32_t b = in->args[0], t = in->args[4];
      ptera_value *args[6];
      for (uint32_t j = 0; j < 4; j++) args[j] = &m->values[in->args[j]];
      args[4] = args[5] = &m->values[b];
      ptera_status st =
          pr_alias_install(m, c, k, "inplace:index_put", args, 6, m->kernels[in->a], t, b);
      ptera_value *copy_args[2] = {&m->values[t], &m->values[b]};
      if (st == PTERA_OK) st = pr_alias_install(m, cc, ck, "elided:copy_", copy_args, 2, NULL, -1, -1);
      if (st != PTERA_OK) return st;
      am->src[t] = b;
      am->covered[m->chain_base[c] + k] = am->covered[m->chain_base[cc] + ck] = 1;
    }
  return PTERA_OK;
}

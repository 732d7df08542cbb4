/* The strided bmm pattern: layout copies of one tensor X, then a bmm that
 * reads the last as its mat2,
 *
 *      transpose_copy | permute_copy | expand_copy (to the same shape) |
 *      view_copy / et_view (to the same shape), one or more  ->  bmm(a, ., out)
 *
 * into one call of kernels/fused/bmm_strided.c that reads mat2 through the
 * strides the copies amount to (an exported attention's K^T and V from the
 * cache). The copies' outputs must be private to the group (fuse_safety.c). */
#include <string.h>

#include "fused.h"
#include "runtime/fuse.h"

typedef struct layout {
  uint32_t dim;
  int64_t sizes[PTERA_MAX_DIM], strides[PTERA_MAX_DIM];
} layout;

static bool int_value(const ptera_method *m, int32_t v, int64_t *out) {
  if (m->plan->values[v].type != PF_VAL_INT) return false;
  *out = m->plan->values[v].u.i;
  return true;
}

static bool dim_of(int64_t d, uint32_t n, uint32_t *out) {
  if (d < 0) d += n;
  if (d < 0 || d >= (int64_t)n) return false;
  *out = (uint32_t)d;
  return true;
}

/* The layout's shape is tensor t's. */
static bool shaped_as(const layout *l, const pf_tensor *t) {
  if (!t || t->dim != l->dim) return false;
  for (uint32_t d = 0; d < l->dim; d++)
    if (t->sizes[d] != l->sizes[d]) return false;
  return true;
}

/* One layout step at instruction in reading value cur: the new layout and
 * the value it writes (out, and the return slot as a temp); false when in
 * is none. */
static bool step(ptera_method *m, const pf_instr *in, int32_t cur, layout *l, pr_fuse_match *mt,
                 int32_t *next) {
  if (in->type != PF_INSTR_KERNEL || in->nargs < 3 || in->args[0] != cur) return false;
  const char *op = m->op_names[in->a];
  int32_t out;
  if (strcmp(op, "executorch_prim::et_view.default") == 0 && in->nargs == 3) {
    out = in->args[2];
  } else if ((strcmp(op, "aten::view_copy.out") == 0 && in->nargs == 4) ||
             (strcmp(op, "aten::expand_copy.out") == 0 && in->nargs == 5)) {
    out = in->args[in->nargs - 2];
  } else if (strcmp(op, "aten::transpose_copy.int_out") == 0 && in->nargs == 5) {
    int64_t d0, d1;
    uint32_t a, b;
    if (!int_value(m, in->args[1], &d0) || !int_value(m, in->args[2], &d1) ||
        !dim_of(d0, l->dim, &a) || !dim_of(d1, l->dim, &b))
      return false;
    int64_t s = l->sizes[a], t = l->strides[a];
    l->sizes[a] = l->sizes[b], l->strides[a] = l->strides[b];
    l->sizes[b] = s, l->strides[b] = t;
    out = in->args[3];
  } else if (strcmp(op, "aten::permute_copy.out") == 0 && in->nargs == 4) {
    const pf_value *dims = &m->plan->values[in->args[1]];
    if (dims->type != PF_VAL_INT_LIST || dims->u.idx.len != l->dim) return false;
    layout p = *l;
    uint32_t seen = 0;
    for (uint32_t i = 0; i < l->dim; i++) {
      int64_t d;
      uint32_t src;
      if (!int_value(m, dims->u.idx.items[i], &d) || !dim_of(d, l->dim, &src) || (seen >> src & 1u))
        return false;
      seen |= 1u << src;
      p.sizes[i] = l->sizes[src];
      p.strides[i] = l->strides[src];
    }
    *l = p;
    out = in->args[2];
  } else {
    return false;
  }
  /* Every step keeps the shape it claims (view and expand: the same shape). */
  if (!shaped_as(l, pr_fuse_tensor(m, out)) || out == cur || !pr_fuse_temp(mt, out) ||
      !pr_fuse_temp(mt, in->args[in->nargs - 1]))
    return false;
  *next = out;
  return true;
}

ptera_status pr_fuse_match_bmm(ptera_method *m, const pf_chain *chain, uint32_t k,
                               pr_fuse_match *mt, bool *found) {
  const pf_instr *first = &chain->instrs[k];
  if (first->type != PF_INSTR_KERNEL || first->nargs < 3) return PTERA_OK;
  int32_t x = first->args[0], cur = x;
  const pf_tensor *xt = pr_fuse_tensor(m, x);
  if (!xt || xt->dynamism != 0) return PTERA_OK;
  layout l;
  l.dim = xt->dim;
  int64_t s = 1;
  for (uint32_t d = xt->dim; d-- > 0;) {
    l.sizes[d] = xt->sizes[d];
    l.strides[d] = s;
    s *= xt->sizes[d];
  }
  uint32_t j = k;
  while (j < chain->ninstrs && step(m, &chain->instrs[j], cur, &l, mt, &cur)) j++;
  const pf_instr *bmm = pr_fuse_call(m, chain, j, "aten::bmm.out", 4);
  if (j == k || !bmm || bmm->args[1] != cur || bmm->args[0] == cur || l.dim != 3) return PTERA_OK;
  int32_t out = bmm->args[2];
  /* The group writes none of its copies: a and X must be none of them. */
  if (pr_fuse_is_temp(mt, bmm->args[0]) || pr_fuse_is_temp(mt, x)) return PTERA_OK;
  if (bmm->args[3] != out && !pr_fuse_temp(mt, bmm->args[3])) return PTERA_OK;
  mt->args[PK_FB_A] = &m->values[bmm->args[0]];
  mt->args[PK_FB_SRC] = &m->values[x];
  mt->args[PK_FB_SB] = pr_fuse_int(m, l.strides[0]);
  mt->args[PK_FB_SK] = pr_fuse_int(m, l.strides[1]);
  mt->args[PK_FB_SN] = pr_fuse_int(m, l.strides[2]);
  if (!mt->args[PK_FB_SB] || !mt->args[PK_FB_SK] || !mt->args[PK_FB_SN])
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  mt->args[PK_FB_OUT] = &m->values[out];
  mt->nargs = PK_FB_NARGS;
  mt->out = out;
  mt->span = j - k + 1;
  mt->name = "fused:layout+bmm";
  mt->run = pk_fused_bmm_run;
  mt->prepare = pk_fused_bmm_prepare;
  *found = true;
  return PTERA_OK;
}

/* The scaled softmax pattern, as an exported attention writes its scores,
 *
 *      div.Scalar_out | mul.Scalar_out (x, s)  [-> add.out (., mask, alpha 1)]
 *          -> _softmax.out (., dim -1, half_to_float False)
 *
 * into one call of kernels/fused/scale_softmax.c (argument layout in
 * fused/fused.h); the mask may be either operand of the add. The scaled and
 * masked scores are private to the group (fuse_safety.c). */
#include "fused.h"
#include "runtime/fuse.h"

/* _softmax.out over the last dim of value in, else NULL. */
static const pf_instr *softmax_last(const ptera_method *m, const pf_chain *chain, uint32_t k,
                                    int32_t in) {
  const pf_instr *sm = pr_fuse_call(m, chain, k, "aten::_softmax.out", 5);
  const pf_tensor *t = pr_fuse_tensor(m, in);
  if (!sm || sm->args[0] != in || !t || t->dim < 1) return NULL;
  const ptera_value *dim = &m->values[sm->args[1]], *half = &m->values[sm->args[2]];
  if (dim->tag != PTERA_TAG_INT || (dim->u.i != -1 && dim->u.i != (int64_t)t->dim - 1) ||
      half->tag != PTERA_TAG_BOOL || half->u.b)
    return NULL;
  return sm;
}

ptera_status pr_fuse_match_softmax(ptera_method *m, const pf_chain *chain, uint32_t k,
                                   pr_fuse_match *mt, bool *found) {
  const pf_instr *sc = pr_fuse_call(m, chain, k, "aten::div.Scalar_out", 4);
  bool divide = sc != NULL;
  if (!sc) sc = pr_fuse_call(m, chain, k, "aten::mul.Scalar_out", 4);
  double scale;
  if (!sc || !pr_fuse_scalar(&m->values[sc->args[1]], &scale) ||
      m->values[sc->args[1]].tag == PTERA_TAG_BOOL)
    return PTERA_OK;
  int32_t cur = sc->args[2], mask = -1;
  if (!pr_fuse_temp(mt, cur) || !pr_fuse_temp(mt, sc->args[3])) return PTERA_OK;
  uint32_t j = k + 1;
  const pf_instr *add = pr_fuse_call(m, chain, j, "aten::add.out", 5);
  if (add && (add->args[0] == cur) != (add->args[1] == cur)) {
    double alpha;
    if (!pr_fuse_scalar(&m->values[add->args[2]], &alpha) || alpha != 1.0) return PTERA_OK;
    mask = add->args[0] == cur ? add->args[1] : add->args[0];
    cur = add->args[3];
    if (!pr_fuse_temp(mt, cur) || !pr_fuse_temp(mt, add->args[4])) return PTERA_OK;
    j++;
  }
  const pf_instr *sm = softmax_last(m, chain, j, cur);
  if (!sm) return PTERA_OK;
  int32_t out = sm->args[3];
  if (out == sc->args[0] || out == mask || (sm->args[4] != out && !pr_fuse_temp(mt, sm->args[4])))
    return PTERA_OK;
  if (pr_fuse_is_temp(mt, sc->args[0]) || (mask >= 0 && pr_fuse_is_temp(mt, mask))) return PTERA_OK;
  mt->args[PK_FS_IN] = &m->values[sc->args[0]];
  mt->args[PK_FS_SCALE] = pr_fuse_double(m, scale);
  mt->args[PK_FS_DIVIDE] = pr_fuse_bool(m, divide);
  mt->args[PK_FS_MASK] = mask >= 0 ? &m->values[mask] : pr_fuse_none(m);
  if (!mt->args[PK_FS_SCALE] || !mt->args[PK_FS_DIVIDE] || !mt->args[PK_FS_MASK])
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  mt->args[PK_FS_OUT] = &m->values[out];
  mt->nargs = PK_FS_NARGS;
  mt->out = out;
  mt->span = j - k + 1;
  mt->name = mask >= 0 ? "fused:scale+mask+softmax" : "fused:scale+softmax";
  mt->run = pk_fused_softmax_run;
  mt->prepare = pk_fused_softmax_prepare;
  *found = true;
  return PTERA_OK;
}

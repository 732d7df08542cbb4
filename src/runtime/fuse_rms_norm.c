/* The RMSNorm pattern, as a Llama model exports it (x [.., D] f32):
 *
 *      pow.Tensor_Scalar(x, 2) -> mean(., [-1], keepdim) -> add.Scalar(., eps)
 *        -> rsqrt -> mul(x, .) -> [mul(., w [D])]
 *
 * (either operand order in the muls; exponent Int 2 or Double 2.0; the dim
 * -1 or D's index) into one call of kernels/fused/rms_norm.c (argument
 * layout in fused/fused.h). The squares, mean, mean + eps, rsqrt and the
 * unweighted product must be private to the group (fuse_safety.c). A last
 * mul whose other operand is not a [D] float tensor is left out. */
#include "fused.h"
#include "runtime/fuse.h"

/* v's planned tensor when it is Float, else NULL. */
static const pf_tensor *f32_of(const ptera_method *m, int32_t v) {
  const pf_tensor *t = pr_fuse_tensor(m, v);
  return t && t->scalar_type == PTERA_DTYPE_FLOAT ? t : NULL;
}

/* t has x's shape, or x's shape with a last dim of 1 (row). */
static bool shaped(const pf_tensor *t, const pf_tensor *x, bool row) {
  if (!t || t->dim != x->dim || t->dynamism != 0) return false;
  for (uint32_t d = 0; d < x->dim; d++)
    if (t->sizes[d] != (row && d + 1 == x->dim ? 1 : x->sizes[d])) return false;
  return true;
}

/* Plan value v is the number want (Int or Double). */
static bool number_is(const ptera_method *m, int32_t v, double want) {
  const pf_value *pv = &m->plan->values[v];
  return (pv->type == PF_VAL_INT && (double)pv->u.i == want) ||
         (pv->type == PF_VAL_DOUBLE && pv->u.d == want);
}

/* mean.out's dim list is the last dim alone, keepdim true, no dtype. */
static bool mean_last(const ptera_method *m, const pf_instr *mean, uint32_t dim) {
  const pf_value *dims = &m->plan->values[mean->args[1]];
  const pf_value *keep = &m->plan->values[mean->args[2]];
  if (dims->type != PF_VAL_INT_LIST || dims->u.idx.len != 1 || keep->type != PF_VAL_BOOL ||
      !keep->u.b || m->plan->values[mean->args[3]].type != PF_VAL_NULL)
    return false;
  const pf_value *d = &m->plan->values[dims->u.idx.items[0]];
  return d->type == PF_VAL_INT && (d->u.i == -1 || d->u.i == (int64_t)dim - 1);
}

/* Chain instruction k is mul.out(a, b) with {a, b} = {p, q} in either order;
 * *other is the operand that is not p (q == -1: any). */
static const pf_instr *mul_of(ptera_method *m, const pf_chain *chain, uint32_t k, int32_t p,
                              int32_t q, int32_t *other) {
  const pf_instr *mul = pr_fuse_call(m, chain, k, "aten::mul.out", 4);
  if (!mul) return NULL;
  int32_t a = mul->args[0], b = mul->args[1];
  if (a == p && b != p && (q < 0 || b == q)) *other = b;
  else if (b == p && a != p && (q < 0 || a == q)) *other = a;
  else return NULL;
  return mul;
}

/* The instruction's output and return slot become temps; *out is the output. */
static bool step(pr_fuse_match *mt, const pf_instr *in, int32_t *out) {
  *out = in->args[in->nargs - 2];
  return pr_fuse_temp(mt, *out) && pr_fuse_temp(mt, in->args[in->nargs - 1]);
}

ptera_status pr_fuse_match_rms_norm(ptera_method *m, const pf_chain *chain, uint32_t k,
                                    pr_fuse_match *mt, bool *found) {
  const pf_instr *pw = pr_fuse_call(m, chain, k, "aten::pow.Tensor_Scalar_out", 4);
  if (!pw || !number_is(m, pw->args[1], 2.0)) return PTERA_OK;
  int32_t x = pw->args[0], sq, ms, ad, rs, xr, w = -1, dummy;
  const pf_tensor *xt = f32_of(m, x);
  if (!xt || xt->dynamism != 0 || xt->dim < 1 || !step(mt, pw, &sq) || !shaped(f32_of(m, sq), xt, false))
    return PTERA_OK;
  const pf_instr *mean = pr_fuse_call(m, chain, k + 1, "aten::mean.out", 6);
  if (!mean || mean->args[0] != sq || !mean_last(m, mean, xt->dim) || !step(mt, mean, &ms) ||
      !shaped(f32_of(m, ms), xt, true))
    return PTERA_OK;
  const pf_instr *add = pr_fuse_call(m, chain, k + 2, "aten::add.Scalar_out", 5);
  double eps;
  if (!add || add->args[0] != ms || !pr_fuse_scalar(&m->values[add->args[1]], &eps) ||
      m->plan->values[add->args[1]].type == PF_VAL_BOOL || !number_is(m, add->args[2], 1.0) ||
      !step(mt, add, &ad) || !shaped(f32_of(m, ad), xt, true))
    return PTERA_OK;
  const pf_instr *rsq = pr_fuse_call(m, chain, k + 3, "aten::rsqrt.out", 3);
  if (!rsq || rsq->args[0] != ad || !step(mt, rsq, &rs) || !shaped(f32_of(m, rs), xt, true))
    return PTERA_OK;
  const pf_instr *mul = mul_of(m, chain, k + 4, rs, x, &dummy);
  if (!mul || !step(mt, mul, &xr) || !shaped(f32_of(m, xr), xt, false)) return PTERA_OK;
  int32_t out = xr;
  uint32_t span = 5;
  /* The weight: a Float [D] tensor the chain does not write. */
  const pf_instr *wm = mul_of(m, chain, k + 5, xr, -1, &w);
  const pf_tensor *wt = wm ? f32_of(m, w) : NULL;
  if (wt && wt->dim == 1 && wt->sizes[0] == xt->sizes[xt->dim - 1] && wt->dynamism == 0 &&
      !pr_fuse_is_temp(mt, w) && w != x && shaped(f32_of(m, wm->args[2]), xt, false) &&
      wm->args[2] != x && wm->args[2] != w && !pr_fuse_is_temp(mt, wm->args[2])) {
    out = wm->args[2];
    if (wm->args[3] != out && !pr_fuse_temp(mt, wm->args[3])) return PTERA_OK;
    span = 6;
  } else {
    w = -1;
  }
  /* The group leaves out and reads x (and w): none may be a dropped value. */
  pr_fuse_untemp(mt, out);
  if (pr_fuse_is_temp(mt, x) || out == x) return PTERA_OK;
  ptera_value *none = pr_fuse_none(m);
  mt->args[PK_FR_EPS] = pr_fuse_double(m, eps);
  if (!none || !mt->args[PK_FR_EPS])
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  mt->args[PK_FR_X] = &m->values[x];
  mt->args[PK_FR_W] = w < 0 ? none : &m->values[w];
  mt->args[PK_FR_OUT] = &m->values[out];
  mt->nargs = PK_FR_NARGS;
  mt->out = out;
  mt->span = span;
  mt->name = "fused:rms_norm";
  mt->run = pk_fused_rms_norm_run;
  mt->prepare = pk_fused_rms_norm_prepare;
  *found = true;
  return PTERA_OK;
}

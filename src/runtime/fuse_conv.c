/* The convolution pattern: convolution -> [_native_batch_norm_legit_no_training]
 * -> [relu | hardtanh | clamp], at least two of them, into one call of
 * kernels/fused/conv_bn_act.c (its argument layout is in fused/fused.h). */
#include <math.h>

#include "fused.h"
#include "runtime/fuse.h"

static const char CONV[] = "aten::convolution.out", BN[] = "aten::_native_batch_norm_legit_no_training.out";

ptera_status pr_fuse_match_conv(ptera_method *m, const pf_chain *chain, uint32_t k,
                                pr_fuse_match *mt, bool *found) {
  const pf_instr *conv = pr_fuse_call(m, chain, k, CONV, 11);
  if (!conv) return PTERA_OK;
  ptera_value *none = pr_fuse_none(m);
  if (!none) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  for (uint32_t j = 0; j <= PK_FC_GROUPS; j++) mt->args[j] = &m->values[conv->args[j]];
  int32_t cur = conv->args[9];
  mt->args[PK_FC_CONV_OUT] = &m->values[cur];
  if (!pr_fuse_temp(mt, cur) || !pr_fuse_temp(mt, conv->args[10])) return PTERA_OK;
  uint32_t span = 1;
  const char *bn_name = "";
  const pf_instr *bn = pr_fuse_call(m, chain, k + 1, BN, 11);
  for (uint32_t j = PK_FC_BN_W; j <= PK_FC_BN_EPS; j++) mt->args[j] = none;
  if (bn && bn->args[0] == cur) {
    for (uint32_t j = 0; j < 6; j++)
      if (j != 4) mt->args[PK_FC_BN_W + j - (j > 4)] = &m->values[bn->args[1 + j]];
    /* out0 carries on; out1, out2 (empty statistics) and the list are dropped. */
    for (uint32_t j = 7; j < 11; j++)
      if (!pr_fuse_temp(mt, bn->args[j])) return PTERA_OK;
    cur = bn->args[7];
    span++;
    bn_name = "+bn";
  }
  double lo = -INFINITY, hi = INFINITY;
  const char *act = NULL;
  int32_t out = cur;
  if (pr_fuse_activation(m, chain, k + span, cur, mt, &lo, &hi, &out, &act)) span++;
  if (span < 2) return PTERA_OK;
  pr_fuse_untemp(mt, out); /* batch norm last: its out0 stays */
  mt->args[PK_FC_MIN] = pr_fuse_double(m, lo);
  mt->args[PK_FC_MAX] = pr_fuse_double(m, hi);
  char name[48] = "fused:conv";
  pt_append(name, sizeof name, bn_name);
  if (act) {
    pt_append(name, sizeof name, "+");
    pt_append(name, sizeof name, act);
  }
  char *nm = pt_arena_alloc(&m->arena, strlen(name) + 1, 1);
  if (!mt->args[PK_FC_MIN] || !mt->args[PK_FC_MAX] || !nm)
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  memcpy(nm, name, strlen(name) + 1);
  mt->args[PK_FC_OUT] = &m->values[out];
  mt->nargs = PK_FC_NARGS;
  mt->out = out;
  mt->span = span;
  mt->name = nm;
  mt->run = pk_fused_conv_run;
  mt->prepare = pk_fused_conv_prepare;
  *found = true;
  return PTERA_OK;
}

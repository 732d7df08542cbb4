/* The max pool pattern: one max_pool2d_with_indices.out whose indices no
 * other instruction reads (and which no method output holds) runs
 * kernels/fused/max_pool.c, which computes no indices (a CNN's stem pool:
 * the indices are only for a backward pass). A group of one instruction. */
#include "fused.h"
#include "runtime/fuse.h"

ptera_status pr_fuse_match_maxpool(ptera_method *m, const pf_chain *chain, uint32_t k, pr_fuse_match *mt,
                                   bool *found) {
  const pf_instr *mp = pr_fuse_call(m, chain, k, "aten::max_pool2d_with_indices.out", 9);
  if (!mp) return PTERA_OK;
  int32_t out = mp->args[6];
  if (!pr_fuse_temp(mt, mp->args[7]) || !pr_fuse_temp(mt, mp->args[8])) return PTERA_OK;
  for (uint32_t i = 0; i < PK_FM_NARGS; i++) mt->args[i] = &m->values[mp->args[i]];
  mt->nargs = PK_FM_NARGS;
  mt->out = out;
  mt->span = 1;
  mt->name = "fused:max_pool2d";
  mt->run = pk_fused_maxpool_run;
  mt->prepare = pk_fused_maxpool_prepare;
  *found = true;
  return PTERA_OK;
}

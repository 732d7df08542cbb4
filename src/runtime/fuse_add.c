/* The add pattern: add -> relu | hardtanh | clamp into one call of
 * kernels/fused/add_act.c (argument layout in fused/fused.h). */
#include <stdio.h>

#include "fused.h"
#include "runtime/fuse.h"

ptera_status pr_fuse_match_add(ptera_method *m, const pf_chain *chain, uint32_t k,
                               pr_fuse_match *mt, bool *found) {
  const pf_instr *add = pr_fuse_call(m, chain, k, "aten::add.out", 5);
  if (!add) return PTERA_OK;
  int32_t cur = add->args[3], out;
  double lo, hi;
  const char *act;
  if (!pr_fuse_temp(mt, cur) || !pr_fuse_temp(mt, add->args[4]) ||
      !pr_fuse_activation(m, chain, k + 1, cur, mt, &lo, &hi, &out, &act))
    return PTERA_OK;
  for (uint32_t i = 0; i < 3; i++) mt->args[i] = &m->values[add->args[i]];
  mt->args[PK_FA_MIN] = pr_fuse_double(m, lo);
  mt->args[PK_FA_MAX] = pr_fuse_double(m, hi);
  char name[48];
  int len = snprintf(name, sizeof name, "fused:add+%s", act);
  char *nm = pt_arena_alloc(&m->arena, (size_t)len + 1, 1);
  if (!mt->args[PK_FA_MIN] || !mt->args[PK_FA_MAX] || !nm)
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  memcpy(nm, name, (size_t)len + 1);
  mt->args[PK_FA_OUT] = &m->values[out];
  mt->nargs = PK_FA_NARGS;
  mt->out = out;
  mt->span = 2;
  mt->name = nm;
  mt->run = pk_fused_add_run;
  mt->prepare = pk_fused_add_prepare;
  *found = true;
  return PTERA_OK;
}

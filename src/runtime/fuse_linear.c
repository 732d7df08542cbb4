/* The linear pattern: linear -> [et_view] -> relu | hardtanh | clamp into one call of
 * kernels/fused/linear_act.c (argument layout in fused/fused.h). */

#include "fused.h"
#include "runtime/fuse.h"

ptera_status pr_fuse_match_linear(ptera_method *m, const pf_chain *chain, uint32_t k,
                                  pr_fuse_match *mt, bool *found) {
  const pf_instr *lin = pr_fuse_call(m, chain, k, "aten::linear.out", 5);
  if (!lin) return PTERA_OK;
  int32_t cur = lin->args[3], out;
  double lo, hi;
  const char *act;
  if (!pr_fuse_temp(mt, cur) || !pr_fuse_temp(mt, lin->args[4])) return PTERA_OK;
  uint32_t j = k + 1;
  /* A reshape between (an exported linear over [B, S, K] is one over
   * [B*S, K] viewed back): the view is dropped with the rest. */
  const pf_instr *view = pr_fuse_call(m, chain, j, "executorch_prim::et_view.default", 3);
  if (view && view->args[0] == cur) {
    if (!pr_fuse_temp(mt, view->args[2])) return PTERA_OK;
    cur = view->args[2];
    j++;
  }
  if (!pr_fuse_activation(m, chain, j, cur, mt, &lo, &hi, &out, &act)) return PTERA_OK;
  for (uint32_t i = 0; i < 3; i++) mt->args[i] = &m->values[lin->args[i]];
  mt->args[PK_FL_MIN] = pr_fuse_double(m, lo);
  mt->args[PK_FL_MAX] = pr_fuse_double(m, hi);
  char name[48] = "fused:linear+";
  pt_append(name, sizeof name, act);
  size_t len = strlen(name);
  char *nm = pt_arena_alloc(&m->arena, len + 1, 1);
  if (!mt->args[PK_FL_MIN] || !mt->args[PK_FL_MAX] || !nm)
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  memcpy(nm, name, len + 1);
  mt->args[PK_FL_OUT] = &m->values[out];
  mt->nargs = PK_FL_NARGS;
  mt->out = out;
  mt->span = j - k + 1;
  mt->name = nm;
  mt->run = pk_fused_linear_run;
  mt->prepare = pk_fused_linear_prepare;
  *found = true;
  return PTERA_OK;
}

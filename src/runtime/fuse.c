/* Load-time fusion (fuse.h): after instructions are resolved, each pattern
 * is tried at every KERNEL instruction of a chain without control flow; a
 * match whose intermediates are private to the group and whose fused prepare
 * accepts it (sets a state) replaces the group at execute. Then the
 * aliasing passes drop copies the program cannot observe (fuse_view.c,
 * fuse_inplace.c). The program is not changed; a group that does not fuse
 * runs as written. */

#include "runtime/fuse.h"
#include "runtime/kernel_ctx.h"

static const pr_fuse_matcher matchers[] = {pr_fuse_match_conv, pr_fuse_match_linear,
                                              pr_fuse_match_add, pr_fuse_match_bmm,
                                              pr_fuse_match_softmax,
                                              pr_fuse_match_rms_norm, pr_fuse_match_maxpool};

/* Jumps and moves make value flow depend on the path taken: such chains
 * run as written. */
static bool chain_straight(const pf_chain *chain) {
  for (uint32_t k = 0; k < chain->ninstrs; k++)
    if (chain->instrs[k].type == PF_INSTR_JUMP_FALSE || chain->instrs[k].type == PF_INSTR_MOVE)
      return false;
  return true;
}

/* Runs the fused prepare; *g stays NULL when it declines. */
static ptera_status prepare_group(ptera_method *m, uint32_t k, const pr_fuse_match *mt,
                                  pr_fused **g) {
  ptera_kernel_prepare_ctx ctx = {mt->name, &m->err, m->allocator, &m->packed, &m->packed_bytes,
                                  ptera_threadpool_size(m->pool), NULL, 0};
  pt_err_clear(&m->err);
  ptera_value **args = (ptera_value **)mt->args;
  ptera_status st = mt->prepare(&ctx, args, mt->nargs);
  if (st != PTERA_OK) {
    if (!m->err.msg[0]) pt_fail(&m->err, st, "%s", ptera_status_name(st));
    m->err.status = st;
    pt_err_prefix(&m->err, "method '%s' instruction %u (%s): prepare failed", m->plan->name.ptr, k,
                  mt->name);
    return st;
  }
  if (!ctx.state) return PTERA_OK;
  pr_fused *f = pt_arena_alloc(&m->arena, sizeof *f, 8);
  ptera_value **a = pt_arena_array(&m->arena, mt->nargs, sizeof *a, 8);
  if (!f || !a) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  memcpy(a, mt->args, mt->nargs * sizeof *a);
  f->name = mt->name;
  f->run = mt->run;
  f->args = a;
  f->nargs = mt->nargs;
  f->span = mt->span;
  f->state = ctx.state;
  if (ctx.workspace > m->max_workspace) m->max_workspace = ctx.workspace;
  *g = f;
  return PTERA_OK;
}

ptera_status pr_fuse_install(ptera_method *m, uint32_t c, uint32_t k, pr_fused *g) {
  if (!m->fused) {
    size_t n = m->chain_base[m->plan->nchains - 1] + m->plan->chains[m->plan->nchains - 1].ninstrs;
    m->fused = pt_arena_array(&m->arena, n, sizeof *m->fused, 8);
    if (!m->fused) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  }
  m->fused[m->chain_base[c] + k] = g;
  return PTERA_OK;
}

static ptera_status fuse_chain(ptera_method *m, uint32_t c) {
  const pf_chain *chain = &m->plan->chains[c];
  for (uint32_t k = 0; k < chain->ninstrs; k++) {
    if (chain->instrs[k].type != PF_INSTR_KERNEL) continue;
    for (size_t p = 0; p < sizeof matchers / sizeof matchers[0]; p++) {
      pr_fuse_match mt;
      memset(&mt, 0, sizeof mt);
      bool found = false;
      ptera_status st = matchers[p](m, chain, k, &mt, &found);
      if (st != PTERA_OK) return st;
      if (!found || mt.span < 1 || k + mt.span > chain->ninstrs ||
          !pr_fuse_group_private(m, c, k, &mt))
        continue;
      pr_fused *g = NULL;
      st = prepare_group(m, k, &mt, &g);
      if (st != PTERA_OK) return st;
      if (!g) continue;
      st = pr_fuse_install(m, c, k, g);
      if (st != PTERA_OK) return st;
      k += g->span - 1;
      break;
    }
  }
  return PTERA_OK;
}

ptera_status pr_method_fuse(ptera_method *m) {
  for (uint32_t c = 0; c < m->plan->nchains; c++) {
    if (!chain_straight(&m->plan->chains[c])) continue;
    ptera_status st = fuse_chain(m, c);
    if (st != PTERA_OK) return st;
  }
  /* Then copies that need not happen, around the groups made so far. */
  if (pr_alias_straight(m)) {
    pr_alias_map am;
    ptera_status st = pr_alias_map_init(m, &am);
    if (st == PTERA_OK) st = pr_fuse_views(m, &am);
    if (st == PTERA_OK) st = pr_fuse_inplace(m, &am);
    pr_alias_map_free(m, &am);
    if (st != PTERA_OK) return st;
  }
  pt_err_clear(&m->err);
  return PTERA_OK;
}

/* One CALL node of a graph run with the runtime's own kernels (prefix pc_),
 * for the passes that need values at compile time: constant propagation
 * (passes/constprop.c) and calibration (calibrate.h).
 *
 * Arguments are handed to the kernel as the runtime would (EXECUTION.md
 * 7.1): the node's arguments in schema order, then the return slot (the one
 * written argument, or a tensor list of the written tensors when several).
 * A tensor's storage is bufs[v] when bufs and bufs[v] are set (the caller
 * sized it for the tensor's declared shape); otherwise a read tensor uses
 * its CONST/BUFFER data and a written one fresh scratch storage sized for
 * its declared shape (the upper bound for a dynamic one, which the kernel
 * may shrink). */
#ifndef PTERA_COMPILER_EVAL_H
#define PTERA_COMPILER_EVAL_H

#include "graph.h"
#include "ptera/kernel.h"

typedef struct pc_eval {
  pt_arena scratch;    /* every built value and fresh storage; pc_eval_release */
  ptera_tensor **outs; /* the written tensors, in argument order */
  int32_t *out_ids;    /* their value ids */
  uint32_t nouts;
  bool ran;            /* the kernel exists and returned PTERA_OK */
  pt_err kerr;         /* the kernel's message when it failed */
} pc_eval;

/* Runs node k of g. vmap: g->nvalues pointers, all NULL on entry (and again
 * on return). Returns PTERA_OK (r->ran says whether the kernel succeeded)
 * or an out-of-memory status with a message in g->err. r must be released
 * with pc_eval_release after use, whatever the result. */
PT_FUNC ptera_status pc_eval_call(pc_graph *g, int32_t k, ptera_value **vmap,
                                  uint8_t *const *bufs, pc_eval *r);
PT_FUNC void pc_eval_release(pc_eval *r);

#endif

/* Load-time fusion (fuse.c): a fused group replaces a run of instructions
 * by one kernel with its own prepare step. A pattern's matcher (fuse_*.c)
 * recognises the instructions and builds the fused kernel's arguments; the
 * pass checks that nothing outside the group reads what the group no longer
 * writes (fuse_safety.c), then runs the fused prepare, which may decline. */
#ifndef PTERA_RUNTIME_FUSE_H
#define PTERA_RUNTIME_FUSE_H

#include "runtime/runtime.h"

#define PR_FUSE_MAX_ARGS 24u
#define PR_FUSE_MAX_TEMPS 12u

/* A fused group as execute runs it. */
typedef struct pr_fused {
  const char *name; /* "fused:conv+bn+relu", for profiles and messages */
  ptera_kernel_fn run;
  ptera_value **args;
  uint32_t nargs;
  uint32_t span;    /* instructions covered, >= 2 */
  void *state;      /* from the fused prepare */
} pr_fused;

/* What a matcher found at chain c's instruction k. */
typedef struct pr_fuse_match {
  const char *name;
  ptera_kernel_fn run;
  ptera_kernel_prepare_fn prepare;
  ptera_value *args[PR_FUSE_MAX_ARGS];
  uint32_t nargs;
  /* Values the covered instructions write that the fused kernel need not
   * (intermediates, return slots, unused extra outputs): nothing outside
   * the group may read them. */
  int32_t temps[PR_FUSE_MAX_TEMPS];
  uint32_t ntemps;
  int32_t out;   /* the one value the group leaves for the rest of the method */
  uint32_t span;
} pr_fuse_match;

/* A matcher: 0 = no match at k, else fills *mt (span >= 2). A status other
 * than OK (out of memory) fails method load. */
typedef ptera_status (*pr_fuse_matcher)(ptera_method *m, const pf_chain *chain, uint32_t k,
                                        pr_fuse_match *mt, bool *found);

/* ---- helpers for matchers (fuse_match.c) ---- */

/* Chain instruction k when it is a KERNEL call of op (full name) with nargs
 * arguments, else NULL. */
PT_FUNC const pf_instr *pr_fuse_call(const ptera_method *m, const pf_chain *chain, uint32_t k,
                                     const char *op, uint32_t nargs);
/* A method-owned Double value (the matcher's normalised scalars); NULL when
 * out of memory. */
PT_FUNC ptera_value *pr_fuse_double(ptera_method *m, double d);
/* The method's None value for absent optional arguments; NULL when out of memory. */
PT_FUNC ptera_value *pr_fuse_none(ptera_method *m);
/* Adds value v to mt's temps; false when full. */
PT_FUNC bool pr_fuse_temp(pr_fuse_match *mt, int32_t v);
/* A Scalar argument (Int, Double or Bool) as a double; false for anything else. */
PT_FUNC bool pr_fuse_scalar(const ptera_value *v, double *out);
/* The activation at chain instruction k reading value in: relu, hardtanh or
 * clamp (with constant bounds), as its [min, max] and its output; false
 * when k is none of these. Adds its return slot to mt's temps. */
PT_FUNC bool pr_fuse_activation(ptera_method *m, const pf_chain *chain, uint32_t k, int32_t in,
                                pr_fuse_match *mt, double *min, double *max, int32_t *out,
                                const char **name);

/* ---- safety (fuse_safety.c) ---- */

/* Whether the group (chain c, instructions [k, k + mt->span)) may drop
 * mt's temps: none is a method input or output, or read by an instruction
 * outside the group (directly or in a list), and no value sharing a temp's
 * planned memory is read outside the group before it is written again. */
PT_FUNC bool pr_fuse_group_private(const ptera_method *m, uint32_t c, uint32_t k,
                                   const pr_fuse_match *mt);

/* ---- patterns ---- */

PT_FUNC ptera_status pr_fuse_match_conv(ptera_method *m, const pf_chain *chain, uint32_t k,
                                        pr_fuse_match *mt, bool *found);
PT_FUNC ptera_status pr_fuse_match_linear(ptera_method *m, const pf_chain *chain, uint32_t k,
                                          pr_fuse_match *mt, bool *found);

#endif

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
  uint32_t span;    /* instructions covered, >= 1 */
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

/* A matcher: 0 = no match at k, else fills *mt (span >= 1). A status other
 * than OK (out of memory) fails method load. */
typedef ptera_status (*pr_fuse_matcher)(ptera_method *m, const pf_chain *chain, uint32_t k,
                                        pr_fuse_match *mt, bool *found);

/* ---- helpers for matchers (fuse_match.c) ---- */

/* Chain instruction k when it is a KERNEL call of op (full name) with nargs
 * arguments, else NULL. */
PT_FUNC const pf_instr *pr_fuse_call(const ptera_method *m, const pf_chain *chain, uint32_t k,
                                     const char *op, uint32_t nargs);
/* Method-owned Double, Int and Bool values (the matcher's normalised
 * arguments); NULL when out of memory. */
PT_FUNC ptera_value *pr_fuse_double(ptera_method *m, double d);
PT_FUNC ptera_value *pr_fuse_int(ptera_method *m, int64_t i);
PT_FUNC ptera_value *pr_fuse_bool(ptera_method *m, bool b);
/* The method's None value for absent optional arguments; NULL when out of memory. */
PT_FUNC ptera_value *pr_fuse_none(ptera_method *m);
/* Plan value v's tensor, or NULL when v is not a tensor. */
PT_FUNC const pf_tensor *pr_fuse_tensor(const ptera_method *m, int32_t v);
/* Adds value v to mt's temps; false when full. */
PT_FUNC bool pr_fuse_temp(pr_fuse_match *mt, int32_t v);
/* Whether v is one of mt's temps. */
PT_FUNC bool pr_fuse_is_temp(const pr_fuse_match *mt, int32_t v);
/* v leaves the group (the value it hands on): no longer one of mt's temps. */
PT_FUNC void pr_fuse_untemp(pr_fuse_match *mt, int32_t v);
/* A Scalar argument (Int, Double or Bool) as a double; false for anything else. */
PT_FUNC bool pr_fuse_scalar(const ptera_value *v, double *out);
/* The activation at chain instruction k reading value in: relu, hardtanh or
 * clamp (with constant bounds), as its [min, max] and its output; false
 * when k is none of these. Adds its return slot to mt's temps. */
PT_FUNC bool pr_fuse_activation(ptera_method *m, const pf_chain *chain, uint32_t k, int32_t in,
                                pr_fuse_match *mt, double *min, double *max, int32_t *out,
                                const char **name);

/* ---- safety (fuse_safety.c) ---- */

/* Whether plan argument arg is value v or a list holding it. */
PT_FUNC bool pr_fuse_refers(const pf_plan *p, int32_t arg, int32_t v);
/* v is a method input or output, or sits in a list that is one. */
PT_FUNC bool pr_fuse_is_io(const pf_plan *p, int32_t v);
/* v's planned memory (a tensor with an allocation and bytes), else NULL. */
PT_FUNC const pf_tensor *pr_fuse_planned(const pf_plan *p, int32_t v);
PT_FUNC bool pr_fuse_overlap(const pf_tensor *a, const pf_tensor *b);
/* After chain gc's instructions [gk, gk + span), x is read before an
 * instruction writes it, or it is a method output that nothing writes again. */
PT_FUNC bool pr_fuse_read_after(const ptera_method *m, int32_t x, uint32_t gc, uint32_t gk,
                                uint32_t span);

/* Whether the group (chain c, instructions [k, k + mt->span)) may drop
 * mt's temps: none is a method input or output, or read by an instruction
 * outside the group (directly or in a list), and no value sharing a temp's
 * planned memory is read outside the group before it is written again. */
PT_FUNC bool pr_fuse_group_private(const ptera_method *m, uint32_t c, uint32_t k,
                                   const pr_fuse_match *mt);

/* ---- groups (fuse.c) ---- */

/* Installs g as the group starting at chain c's instruction k. */
PT_FUNC ptera_status pr_fuse_install(ptera_method *m, uint32_t c, uint32_t k, pr_fused *g);

/* ---- aliasing groups (fuse_alias.c) ---- */

/* An aliasing group: at execute it points tensor dst at src's bytes (et_view's
 * rule, so an input bound anew is followed), then runs fn, if any, over the
 * group's arguments; no fn: the instruction's copy is not needed. */
typedef struct pr_alias_state {
  ptera_kernel_fn fn;
  ptera_value *dst; /* NULL: nothing to point */
  const ptera_value *src;
} pr_alias_state;
PT_FUNC ptera_status pr_alias_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs);
/* Installs a one-instruction aliasing group at chain c's instruction k. */
PT_FUNC ptera_status pr_alias_install(ptera_method *m, uint32_t c, uint32_t k, const char *name,
                                      ptera_value **args, uint32_t nargs, ptera_kernel_fn fn,
                                      int32_t dst, int32_t src);

/* What the aliasing passes know of a method: per value, the value whose
 * bytes it shows (et_view's self, an elided copy's source) or -1; per flat
 * instruction, whether a group covers it. */
typedef struct pr_alias_map {
  int32_t *src;
  uint8_t *covered;
  size_t ninstrs;
} pr_alias_map;
PT_FUNC ptera_status pr_alias_map_init(ptera_method *m, pr_alias_map *am);
PT_FUNC void pr_alias_map_free(ptera_method *m, pr_alias_map *am);
/* The value whose bytes v shows, following et_views and elided copies. */
PT_FUNC int32_t pr_alias_root(const ptera_method *m, const pr_alias_map *am, int32_t v);
/* x shows v's bytes through views made from v (x == v included). */
PT_FUNC bool pr_alias_from(const ptera_method *m, const pr_alias_map *am, int32_t x, int32_t v);
/* Whether instruction in may write the bytes of a value that shows v's
 * bytes through views made from v: one is (or a list holding one is) its
 * return slot (first argument for et_copy_index); a delegate: one of the
 * arguments its backend said it writes (ABI v3), else any argument.
 * et_view writes no bytes. */
PT_FUNC bool pr_alias_writes(const ptera_method *m, const pr_alias_map *am, const pf_instr *in,
                             int32_t v);
/* Whether instruction in names a value that shows v's bytes through views made from v
 * (any argument, or a FREE). */
PT_FUNC bool pr_alias_names(const ptera_method *m, const pr_alias_map *am, const pf_instr *in,
                            int32_t v);
/* Every chain runs straight (no jumps or moves). */
PT_FUNC bool pr_alias_straight(const ptera_method *m);

/* ---- aliasing passes ---- */

/* Load-time view elision (fuse_view.c): view_copy, squeeze_copy,
 * unsqueeze_copy, alias_copy and same-numel expand_copy of contiguous data
 * become aliasing groups where the program cannot tell. */
PT_FUNC ptera_status pr_fuse_views(ptera_method *m, pr_alias_map *am);
/* In-place cache update (fuse_inplace.c): index_put(B) -> T ... copy_(B, T)
 * with B read nowhere between runs index_put in B, T shows B, copy_ is dropped. */
PT_FUNC ptera_status pr_fuse_inplace(ptera_method *m, pr_alias_map *am);

/* ---- patterns ---- */

PT_FUNC ptera_status pr_fuse_match_conv(ptera_method *m, const pf_chain *chain, uint32_t k,
                                        pr_fuse_match *mt, bool *found);
PT_FUNC ptera_status pr_fuse_match_add(ptera_method *m, const pf_chain *chain, uint32_t k,
                                       pr_fuse_match *mt, bool *found);
PT_FUNC ptera_status pr_fuse_match_bmm(ptera_method *m, const pf_chain *chain, uint32_t k,
                                       pr_fuse_match *mt, bool *found);
PT_FUNC ptera_status pr_fuse_match_linear(ptera_method *m, const pf_chain *chain, uint32_t k,
                                          pr_fuse_match *mt, bool *found);
PT_FUNC ptera_status pr_fuse_match_softmax(ptera_method *m, const pf_chain *chain, uint32_t k,
                                           pr_fuse_match *mt, bool *found);
PT_FUNC ptera_status pr_fuse_match_rms_norm(ptera_method *m, const pf_chain *chain, uint32_t k,
                                            pr_fuse_match *mt, bool *found);
PT_FUNC ptera_status pr_fuse_match_maxpool(ptera_method *m, const pf_chain *chain, uint32_t k,
                                           pr_fuse_match *mt, bool *found);

#endif

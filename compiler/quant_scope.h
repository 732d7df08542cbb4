/* Which calls the quantizers may touch (prefix pc_qscope): the scope of a
 * quantization by module, from the module stack the front end recorded on
 * each call (graph.h pc_gscope).
 *
 * An entry NAME names a module by its fully qualified name: a call is under
 * it when a module of its stack is NAME or inside it ("layers.0" covers
 * "layers.0.attn.q_proj", not "layers.01"). An entry "type:T" names every
 * module of class T: a call is under it when a module of its stack has
 * class name T. A call is in scope when `only` is empty or it is under one
 * of `only`, and it is under none of `skip`.
 *
 * The quantizers read the scope through g->qscope: weight-only and dynamic
 * quantization quantize only the linear layers in scope; int8-static
 * quantizes the convolutions and linear layers in scope, and runs an
 * operator that moves or joins quantized values (add, sub, mul, cat,
 * pooling, clamp, reshape, transpose, slice, copy) in int8 only when it is
 * in scope and none of the values it reads is foreign: made by a call out
 * of scope, or by any call other than a convolution or linear layer that
 * read a foreign value (pc_qscope_foreign). Without entries every call is
 * in scope and nothing is foreign. */
#ifndef PTERA_COMPILER_QUANT_SCOPE_H
#define PTERA_COMPILER_QUANT_SCOPE_H

#include "graph.h"

typedef struct pc_qscope {
  const char *const *only; /* NAME or "type:T" entries */
  uint32_t nonly;
  const char *const *skip;
  uint32_t nskip;
} pc_qscope;

/* Whether s has any entry (NULL: none). */
PT_FUNC bool pc_qscope_any(const pc_qscope *s);

/* Whether call n is in scope (s NULL: every call). */
PT_FUNC bool pc_qscope_in(const pc_qscope *s, const pc_gnode *n);

/* Every entry of s covers at least one call of the methods (as read,
 * before any pass); else InvalidArgument naming the first that covers
 * none (and, when no call records its module, saying so). */
PT_FUNC ptera_status pc_qscope_check(const pc_qscope *s, pc_graph *const *methods, uint32_t n,
                                     pt_err *e);

/* Whether live call n of g is a quantization anchor: a convolution or a
 * linear layer, whose int8 form takes fresh parameters of its own. */
PT_FUNC bool pc_qscope_anchor(const pc_graph *g, const pc_gnode *n);

/* Per value of g, into foreign (g->nvalues bytes): whether a live call out
 * of scope wrote it, or a call other than an anchor that read a foreign
 * value (quant_scope.h). Calls are visited in order. */
PT_FUNC void pc_qscope_foreign(const pc_graph *g, uint8_t *foreign);

#endif

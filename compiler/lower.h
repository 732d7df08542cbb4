/* Lowering (prefix pc_): compiler IR methods (graph.h) into the emitter's
 * program description (emit_pte.h), with memory planned (memplan.h).
 *
 * What is emitted, per method:
 *  - only values that live (non-removed) CALL nodes, the inputs and the
 *    outputs reach (a tensor list reaches its tensors); region markers are
 *    dropped. Values keep their graph order.
 *  - INT/DOUBLE/BOOL/NONE/STRING map directly. INTS become an IntList whose
 *    items index boxed Int values created just before the list (as
 *    ExecuTorch emits them); DOUBLES/BOOLS are inline lists; TENSORS a
 *    TensorList; OPT_TENSORS an OptionalTensorList (-1 stays -1).
 *  - one KernelCall per live CALL node, in order, with the return slot the
 *    graph leaves out appended (EXECUTION.md 7.1): the one written argument;
 *    a new TensorList of the written tensors when there are several; a new
 *    None when there is none. Functional operators (executorch_prim::*,
 *    aten::sym_size.int, aten::sym_numel, aten::_local_scalar_dense) get
 *    nothing appended: their last, written argument is the return slot.
 *  - "ns::name.overload" is split at the last '.' (no dot: the default
 *    overload ""); the operator table is deduplicated per method.
 *
 * Tensors:
 *  - CONST: constant data in the .pte. With external weights the data goes
 *    to the .ptd instead (the tensor is EXTERNAL) under its key: the fqn
 *    (PC_WEIGHT_KEYS_FQN) or the lowercase SHA-256 hex of its bytes
 *    (PC_WEIGHT_KEYS_HASH). With fqn keys, constants without an fqn (those
 *    constprop folded, for instance) stay inside the .pte. With hash keys,
 *    a constant whose bytes equal an earlier one's but whose dtype or shape
 *    differs stays inside the .pte (a .ptd key has one layout).
 *  - BUFFER: planned, with its data as the initial value copied in at load
 *    (mutable_data_segments); live for the whole method and pinned (never
 *    shares memory), so state persists across executions. fqn is kept.
 *  - ACTIVATION: planned.
 *  - Each alias class (pc_graph_alias_root) is planned as one buffer: every
 *    planned member gets the class's location; the class lives from its
 *    first write to its last read over all members. An output of
 *    executorch_prim::et_view.default is left unplanned, as ExecuTorch
 *    does: the kernel points it at its base at run time (its reads still
 *    keep the base alive). A CONST in a class with planned members, or a
 *    CONST some node writes, is planned with its data as initial value.
 *  - Lifetimes are instruction indices: first write (method inputs and
 *    BUFFERs: 0) to last read, through tensor lists that contain the tensor;
 *    outputs and BUFFERs live to the end. Inputs, outputs and BUFFERs are
 *    pinned. The inputs of a convolution or linear call followed by calls
 *    the runtime fuses into it (batch norm, view, relu / hardtanh / clamp,
 *    each reading the one before) live until the last of them, so the
 *    fused kernel's output never shares their bytes.
 *
 * The result points into the graphs (constant data, strings): they must
 * outlive it. */
#ifndef PTERA_COMPILER_LOWER_H
#define PTERA_COMPILER_LOWER_H

#include "emit_pte.h"
#include "emit_ptd.h"
#include "graph.h"
#include "core/memplan.h"

typedef enum pc_weight_keys {
  PC_WEIGHT_KEYS_FQN = 0,  /* the tensor's fqn */
  PC_WEIGHT_KEYS_HASH = 1  /* sha256 hex of the bytes */
} pc_weight_keys;

typedef struct pc_lower_options {
  const ptera_allocator *allocator; /* NULL: default */
  bool external_weights;            /* CONSTs into a .ptd (see above) */
  pc_weight_keys weight_keys;
  size_t alignment;                 /* planned offsets; 0 = 16 */
} pc_lower_options;

typedef struct pc_lower_result {
  pc_program program;
  /* Per method (program.nmethods entries): */
  pt_memplan_summary *plans;
  int32_t **value_index; /* graph value id -> program value index, or -1 */
  /* The external weights, one per distinct key, for pc_emit_ptd. */
  pc_ptd_entry *ptd;
  uint32_t nptd;
  pt_arena arena; /* owns everything above */
} pc_lower_result;

/* Lowers n graphs (one method each, in order) into out. options may be
 * NULL. On failure out is left empty (safe to free) and e says why:
 * InvalidArgument (a malformed graph, conflicting weight keys),
 * NotSupported (a planned alias of a constant shared by two initial values,
 * too many values), MemoryAllocationFailed. */
PT_FUNC ptera_status pc_lower(pc_graph *const *graphs, uint32_t n, const pc_lower_options *options,
                              pc_lower_result *out, pt_err *e);

PT_FUNC void pc_lower_result_free(pc_lower_result *r);

#endif

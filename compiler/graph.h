/* The compiler's IR (prefix pc_): one method as a list of values and a list
 * of nodes over them, in the out-variant form the runtime executes.
 *
 *  - A value is a tensor, a scalar (int, double, bool), None, a string, or a
 *    list (ints, doubles, bools inline; tensors and optional tensors by
 *    value id, -1 for None).
 *  - A tensor is an ACTIVATION (a method input, an output, or an
 *    intermediate: memory-planned), a CONST (read-only data: weights), or a
 *    BUFFER (mutable state with an initial value that persists across
 *    executions, like a KV cache).
 *  - A CALL node names an operator overload ("aten::add.out") and lists its
 *    arguments in schema order, the out arguments last; writes[i] is set for
 *    every argument the call writes (out arguments and in-place self).
 *    A written tensor list means every tensor in it is written.
 *  - REGION_BEGIN / REGION_END nodes mark no_grad / autocast regions the
 *    front end saw; they do nothing at run time and the lowering drops them.
 *  - The producer of a value is the first node that writes it. A value is
 *    *mutated* when a node other than its producer writes it, or any node
 *    writes an input, CONST or BUFFER. Aliases (pc_graph_alias: a view and
 *    its base share storage) make a mutation of one a mutation of all.
 *
 * Passes never renumber: they rewrite argument ids, turn values into
 * constants and set node->removed. The lowering emits only the values that
 * live nodes, inputs and outputs reach.
 *
 * All memory (arrays, strings, constant data) lives in the graph's arena and
 * is released by pc_graph_free. Functions that can fail return -1 (ids) or a
 * status, and leave a message in g->err. */
#ifndef PTERA_COMPILER_GRAPH_H
#define PTERA_COMPILER_GRAPH_H

#include "core/core.h"
#include "opset.h"

typedef enum pc_gkind {
  PC_G_NONE = 0,
  PC_G_INT,
  PC_G_DOUBLE,
  PC_G_BOOL,
  PC_G_STRING,
  PC_G_INTS,
  PC_G_DOUBLES,
  PC_G_BOOLS,
  PC_G_TENSORS,     /* value ids of tensors */
  PC_G_OPT_TENSORS, /* value ids of tensors, -1 for None */
  PC_G_TENSOR
} pc_gkind;

typedef enum pc_tstore {
  PC_T_ACTIVATION = 0,
  PC_T_CONST = 1,
  PC_T_BUFFER = 2
} pc_tstore;

typedef struct pc_gtensor {
  uint8_t dtype;    /* ptera_dtype */
  uint8_t dim;      /* <= PTERA_MAX_DIM */
  uint8_t dynamism; /* ptera_dynamism: 0 static, 1 bound, 2 unbound */
  pc_tstore store;
  int32_t sizes[PTERA_MAX_DIM];
  uint8_t dim_order[PTERA_MAX_DIM]; /* always set; 0..dim-1 when contiguous */
  const uint8_t *data; /* CONST and BUFFER: 16-aligned, nbytes long */
  size_t nbytes;
  const char *fqn; /* CONST and BUFFER: parameter / buffer name, or NULL */
  /* A CONST a pass computed from a named one (a weight stored transposed):
   * that one's name, for messages only (the bytes differ, so it is no fqn). */
  const char *source;
} pc_gtensor;

typedef struct pc_gvalue {
  pc_gkind kind;
  union {
    int64_t i;
    double d;
    bool b;
    const char *str;
    pc_gtensor t;
    struct { const int64_t *items; uint32_t len; } ints;
    struct { const double *items; uint32_t len; } doubles;
    struct { const bool *items; uint32_t len; } bools;
    struct { int32_t *ids; uint32_t len; } tensors; /* TENSORS, OPT_TENSORS */
  } u;
  int32_t alias_parent; /* union-find link; the value's own id when none */
} pc_gvalue;

typedef enum pc_nkind { PC_N_CALL = 0, PC_N_REGION_BEGIN, PC_N_REGION_END } pc_nkind;

/* A module a call was made from: its fully qualified name in the model
 * ("layers.0.attn.q_proj") and its class name ("Linear"; no ':'). */
typedef struct pc_gscope {
  const char *path;
  const char *type;
} pc_gscope;

typedef struct pc_gnode {
  pc_nkind kind;
  const char *op; /* CALL: "ns::name.overload"; REGION_BEGIN: "no_grad", "autocast"... */
  int32_t *args;
  uint8_t *writes; /* nargs flags */
  uint32_t nargs;
  bool removed;
  /* A CALL that a backend runs (made by the lowering to a backend, after the
   * passes): op is the backend's name ("XnnpackBackend"), args its inputs
   * then its outputs (written), blob its processed data (blob_size bytes, in
   * the graph's arena). The lowering emits it as a DelegateCall. */
  bool delegate;
  const uint8_t *blob;
  size_t blob_size;
  /* The modules the front end saw the call made from, outermost first (the
   * last is the innermost); none when it did not say (PTG.md `scope=`). */
  const pc_gscope *scope;
  uint32_t nscope;
} pc_gnode;

/* A blob a backend reads by key (NamedData), e.g. XNNPACK weights under the
 * SHA-256 hex of their bytes; data in the graph's arena (or a CONST's). */
typedef struct pc_gnamed {
  const char *key;
  const uint8_t *data;
  size_t nbytes;
} pc_gnamed;

typedef struct pc_graph {
  const char *name; /* method name */
  pc_gvalue *values;
  uint32_t nvalues, values_cap;
  pc_gnode *nodes;
  uint32_t nnodes, nodes_cap;
  int32_t *inputs;
  uint32_t ninputs;
  int32_t *outputs;
  uint32_t noutputs;
  pt_arena arena;
  const ptera_allocator *allocator;
  pt_err err;
  /* Set by the driver when named constants go to a .ptd keyed by their fqn:
   * the user may replace those weights after compiling (a weights-only
   * update), so the passes treat every CONST with an fqn as unknown: not
   * folded through and not merged. */
  bool named_consts_replaceable;
  /* Set by the driver: the operators the compiled program may call; passes
   * that choose between operators ask pc_opset_contains. */
  pc_opset opset;
  /* Named blobs the method's delegates read (keys unique within the graph;
   * arena-allocated, grown by the lowering to a backend). */
  pc_gnamed *named;
  uint32_t nnamed, named_cap;
  /* Set by the driver: where passes leave warnings (diag.h); NULL drops them. */
  struct pc_diag *diag;
  /* Set by the driver: which calls the quantizers may touch (quant_scope.h);
   * NULL: all of them. */
  const struct pc_qscope *qscope;
} pc_graph;

/* NULL only when out of memory. */
PT_FUNC pc_graph *pc_graph_new(const ptera_allocator *allocator, const char *name);
PT_FUNC void pc_graph_free(pc_graph *g);

/* Values. Each returns the new id, or -1 (g->err says why). Arrays, strings
 * and data are copied into the graph. */
PT_FUNC int32_t pc_graph_none(pc_graph *g);
PT_FUNC int32_t pc_graph_int(pc_graph *g, int64_t v);
PT_FUNC int32_t pc_graph_double(pc_graph *g, double v);
PT_FUNC int32_t pc_graph_bool(pc_graph *g, bool v);
PT_FUNC int32_t pc_graph_string(pc_graph *g, const char *s);
PT_FUNC int32_t pc_graph_ints(pc_graph *g, const int64_t *items, uint32_t len);
PT_FUNC int32_t pc_graph_doubles(pc_graph *g, const double *items, uint32_t len);
PT_FUNC int32_t pc_graph_bools(pc_graph *g, const bool *items, uint32_t len);
/* Tensor lists: ids must name existing tensors (or -1 when optional). */
PT_FUNC int32_t pc_graph_tensor_list(pc_graph *g, const int32_t *ids, uint32_t len, bool optional);
/* A contiguous tensor. data/nbytes are required for CONST and BUFFER (nbytes
 * must equal numel * element size) and must be NULL/0 for ACTIVATION. */
PT_FUNC int32_t pc_graph_tensor(pc_graph *g, int dtype, uint32_t dim, const int32_t *sizes,
                                pc_tstore store, const void *data, size_t nbytes,
                                const char *fqn);

/* Nodes; return the node index or -1. writes may be NULL (nothing written). */
PT_FUNC int32_t pc_graph_call(pc_graph *g, const char *op, const int32_t *args,
                              const uint8_t *writes, uint32_t nargs);
PT_FUNC int32_t pc_graph_region(pc_graph *g, bool begin, const char *kind);
/* Sets node k's module stack (copied into the graph; n 0 clears it);
 * every path and type must be non-empty, a type without ':'. */
PT_FUNC ptera_status pc_graph_set_scope(pc_graph *g, uint32_t k, const pc_gscope *scope, uint32_t n);

PT_FUNC ptera_status pc_graph_set_inputs(pc_graph *g, const int32_t *ids, uint32_t n);
PT_FUNC ptera_status pc_graph_set_outputs(pc_graph *g, const int32_t *ids, uint32_t n);

/* Records that a and b share storage (a view and its base). */
PT_FUNC ptera_status pc_graph_alias(pc_graph *g, int32_t a, int32_t b);
/* The representative of v's alias class. */
PT_FUNC int32_t pc_graph_alias_root(const pc_graph *g, int32_t v);

/* numel * element size of a tensor value (0 for non-tensors). */
PT_FUNC size_t pc_gtensor_nbytes(const pc_gtensor *t);

/* Calls fn for every value node n touches: each argument, and each tensor of
 * a tensor-list argument (with the list's written flag). */
typedef void (*pc_arg_visitor)(void *ctx, int32_t value, bool written);
PT_FUNC void pc_graph_visit_args(const pc_graph *g, const pc_gnode *n, pc_arg_visitor fn,
                                 void *ctx);

/* Copies nbytes of data into the graph's arena, 16-aligned; NULL on OOM. */
PT_FUNC const uint8_t *pc_graph_copy_data(pc_graph *g, const void *data, size_t nbytes);

#endif

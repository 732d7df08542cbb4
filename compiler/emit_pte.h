/* The .pte emitter: serialises a small in-memory program description
 * (pc_program) into a loadable ExecuTorch program file (docs/PTE.md). Prefix pc_.
 *
 * pc_program is the emitter's input contract; the compiler IR lowers to it.
 * It is plain data owned by the caller (nothing is copied or retained):
 *
 *  - a program is a list of methods;
 *  - a method has a value table (pc_value), the indices of its inputs and
 *    outputs in that table, one chain of KernelCall instructions, the
 *    operators those instructions name, and the sizes of its memory-planned
 *    arenas;
 *  - tensor values say where their data lives: a constant (bytes that go into
 *    the file's constant segment, or an external constant whose bytes live in
 *    a .ptd under its fully qualified name), a memory-planned slot (arena +
 *    offset, optionally with an initial value), or nowhere (unplanned: bound
 *    at run time by set_input / set_output_buffer);
 *  - a program may also carry named blobs (pc_named_blob): opaque bytes
 *    stored by key in the file, the way backends keep their weights.
 *
 * What the emitter writes (docs/PTE.md §1, §3, §5, §7, §10, §11):
 *  - root Program (version 0), one ExecutionPlan per method with its
 *    delegates vector (possibly empty) and non_const_buffer_sizes = [0, arena
 *    sizes...];
 *  - delegate blobs (docs/PTE.md §5.12): each BackendDelegate's processed data is
 *    a segment (location SEGMENT), identical blobs sharing one, placed after
 *    the mutable segment and before the named blobs, like upstream;
 *  - constants deduplicated by content across all methods into one constant
 *    segment: index 0 is the empty placeholder, each constant starts at a
 *    multiple of constant_alignment (default 16), zero padding between them;
 *    segments = [{0, constant bytes}] and constant_segment = {0, offsets};
 *  - pc_tensor.fqn: extra_tensor_info.fully_qualified_name;
 *  - external constants (docs/PTE.md §6 case 1): extra_tensor_info with location
 *    EXTERNAL and the fqn as the .ptd key, data_buffer_idx 0, nothing in the
 *    constant segment (write the bytes with pc_emit_ptd under the same key);
 *  - planned tensors with an initial value (docs/PTE.md §6 case 4, §8): the bytes
 *    go into a mutable segment, segments[1], placed after the constant
 *    segment at the next multiple of segment_alignment; the values are
 *    concatenated without padding (the runtime copies them into the arena at
 *    method load) and mutable_data_segments = [{1, offsets}] with offsets[0]
 *    the empty placeholder; the tensor's data_buffer_idx (>= 1) indexes it.
 *    Each such tensor gets its own entry (no deduplication: they are state);
 *  - named blobs (docs/PTE.md §10): Program.named_data = one NamedData {key,
 *    segment_index} per blob, in the given order; each distinct blob is a
 *    whole segment of its own after the constant and mutable segments
 *    (identical bytes, compared by content, share one segment);
 *  - Program.segments is therefore [constants, mutable (only with initial
 *    values), delegate blobs..., named blobs...]; each segment starts at the next multiple of
 *    segment_alignment (default 128) after the end of the previous one, the
 *    constant segment at 0; the gaps are zero;
 *  - when the segment data is non-empty (any constant, initial value or
 *    delegate or named blob bytes), the 32-byte "eh00" extended header after the
 *    identifier and the segments from a multiple of segment_alignment after
 *    the flatbuffer; otherwise (like upstream) no header, and the file is just
 *    the flatbuffer (zero-size segments are never read).
 *
 * Inputs are validated (indices in range, tensor shapes, constant sizes,
 * arena ids, list item kinds; external only on CONST tensors and with a
 * non-empty fqn; initial only on PLANNED tensors with initial_nbytes equal
 * to the shape's bytes; named blob keys non-NULL, non-empty and unique, data
 * non-NULL unless nbytes is 0); a bad description fails with InvalidArgument and a
 * message. */
#ifndef PTERA_COMPILER_EMIT_PTE_H
#define PTERA_COMPILER_EMIT_PTE_H

#include "core/core.h"

/* Value kinds; the numbers are the KernelTypes union codes (docs/PTE.md §4.3). */
typedef enum pc_value_kind {
  PC_VAL_NULL = 1,
  PC_VAL_INT = 2,
  PC_VAL_BOOL = 3,
  PC_VAL_DOUBLE = 4,
  PC_VAL_TENSOR = 5,
  PC_VAL_STRING = 6,
  PC_VAL_INT_LIST = 7,    /* items are value indices of Int values */
  PC_VAL_DOUBLE_LIST = 8,
  PC_VAL_BOOL_LIST = 9,
  PC_VAL_TENSOR_LIST = 10, /* items are value indices of Tensor values */
  PC_VAL_OPT_TENSOR_LIST = 11 /* items are value indices of Tensors, -1 for None */
} pc_value_kind;

typedef enum pc_storage {
  PC_STORAGE_NONE = 0,    /* unplanned: no data at load */
  PC_STORAGE_CONST = 1,   /* constant data in the file (data, nbytes) */
  PC_STORAGE_PLANNED = 2  /* memory-planned (memory_id, memory_offset) */
} pc_storage;

typedef struct pc_tensor {
  uint8_t scalar_type;   /* ptera_dtype code */
  uint8_t dim;           /* <= PTERA_MAX_DIM */
  int32_t sizes[PTERA_MAX_DIM];  /* >= 0 */
  /* Memory order of dims, outermost first; used only when has_dim_order,
   * otherwise the contiguous order 0..dim-1 is written. */
  bool has_dim_order;
  uint8_t dim_order[PTERA_MAX_DIM];
  uint8_t dynamism;      /* ptera_dynamism: 0 static, 1 dynamic bound */
  pc_storage storage;
  const void *data;      /* CONST: nbytes = numel * element size bytes */
  size_t nbytes;
  uint32_t memory_id;    /* PLANNED: 1-based arena id (<= method nbuffers) */
  uint64_t memory_offset;/* PLANNED: byte offset in the arena */
  /* extra_tensor_info.fully_qualified_name when non-NULL. */
  const char *fqn;
  /* CONST only: the data lives in an external .ptd under key fqn (location
   * EXTERNAL); data is then not written to the file (nbytes may be 0 or the
   * shape's bytes). Requires fqn. */
  bool external;
  /* PLANNED only: initial value copied in at load (mutable state such as a
   * KV cache), stored in mutable_data_segments[0]; NULL for none. */
  const void *initial;
  size_t initial_nbytes; /* numel * element size when initial is set */
} pc_tensor;

typedef struct pc_value {
  pc_value_kind kind;
  union {
    int64_t i;
    bool b;
    double d;
    const char *str;                                  /* NUL-terminated */
    pc_tensor tensor;
    struct { const int32_t *items; uint32_t len; } list; /* INT/TENSOR/OPT_TENSOR_LIST */
    struct { const double *items; uint32_t len; } doubles;
    struct { const bool *items; uint32_t len; } bools;
  } u;
} pc_value;

/* One KernelCall: operators[op_index](values[args[0]], ...), or with
 * delegate set a DelegateCall: delegates[op_index](values[args[0]], ...). */
typedef struct pc_instr {
  uint32_t op_index;
  const int32_t *args;
  uint32_t nargs;
  bool delegate;
} pc_instr;

/* A BackendDelegate: the backend's name and its processed blob, written as a
 * segment of its own (location SEGMENT; identical blobs share one), with no
 * compile specs. */
typedef struct pc_delegate {
  const char *id;   /* "XnnpackBackend"; non-empty */
  const void *blob; /* nbytes bytes; may be NULL when nbytes is 0 */
  size_t nbytes;
} pc_delegate;

typedef struct pc_operator {
  const char *name;     /* "aten::add" */
  const char *overload; /* "out"; NULL or "" for the default overload */
} pc_operator;

typedef struct pc_method {
  const char *name;
  const pc_value *values;
  uint32_t nvalues;
  const int32_t *inputs;
  uint32_t ninputs;
  const int32_t *outputs;
  uint32_t noutputs;
  const pc_instr *instrs; /* one chain */
  uint32_t ninstrs;
  const pc_operator *ops;
  uint32_t nops;
  /* Arena sizes for memory_id 1..nbuffers (the reserved entry 0 of
   * non_const_buffer_sizes is added by the emitter). */
  const int64_t *buffer_sizes;
  uint32_t nbuffers;
  const pc_delegate *delegates; /* referenced by delegate instructions */
  uint32_t ndelegates;
} pc_method;

/* A blob stored by key in Program.named_data (read back by backends through
 * the NamedDataMap API, ptera_named_data_get). */
typedef struct pc_named_blob {
  const char *key;  /* unique, non-empty, NUL-terminated */
  const void *data; /* nbytes bytes; may be NULL when nbytes is 0 */
  size_t nbytes;
} pc_named_blob;

typedef struct pc_program {
  const pc_method *methods;
  uint32_t nmethods;
  const pc_named_blob *named; /* may be NULL when nnamed is 0 */
  uint32_t nnamed;
} pc_program;

typedef struct pc_emit_options {
  const ptera_allocator *allocator; /* NULL: default; also frees *out */
  uint32_t constant_alignment;      /* power of two; 0 = 16 */
  uint32_t segment_alignment;       /* power of two; 0 = 128 */
} pc_emit_options;

/* Writes p as a .pte into *out (allocated with the options' allocator,
 * 16-byte aligned; free with pt_free(allocator, *out)) of *out_size bytes.
 * options may be NULL. On failure *out is NULL and err says why:
 * InvalidArgument (bad description), MemoryAllocationFailed, NotSupported
 * (too large). */
PT_FUNC ptera_status pc_emit_pte(const pc_program *p, const pc_emit_options *options, uint8_t **out,
                                 size_t *out_size, pt_err *err);

#endif

/* Decoded .pte program (docs/PTE.md). pf_pte_parse verifies every byte it reads
 * and copies the program's structure into arena memory, so the runtime never
 * touches file bytes except tensor/segment data through the helpers below.
 * Every index stored here has been range-checked against its table. */
#ifndef PTERA_FORMAT_PTE_H
#define PTERA_FORMAT_PTE_H

#include "core/core.h"

typedef struct pf_str {
  const char *ptr; /* points into the file; NUL-terminated (checked) */
  uint32_t len;
} pf_str;

typedef struct pf_bytes {
  const uint8_t *ptr; /* into the file */
  uint64_t len;
} pf_bytes;

/* KernelTypes union codes (docs/PTE.md §4.3). */
enum {
  PF_VAL_NULL = 1, PF_VAL_INT, PF_VAL_BOOL, PF_VAL_DOUBLE, PF_VAL_TENSOR, PF_VAL_STRING,
  PF_VAL_INT_LIST, PF_VAL_DOUBLE_LIST, PF_VAL_BOOL_LIST, PF_VAL_TENSOR_LIST,
  PF_VAL_OPT_TENSOR_LIST
};

/* InstructionArguments union codes. */
enum { PF_INSTR_KERNEL = 1, PF_INSTR_DELEGATE, PF_INSTR_MOVE, PF_INSTR_JUMP_FALSE, PF_INSTR_FREE };

typedef struct pf_tensor {
  uint8_t scalar_type;  /* 0..29 (checked) */
  uint8_t dynamism;     /* 0..2 (checked) */
  uint8_t dim;          /* <= PTERA_MAX_DIM (checked) */
  int32_t sizes[PTERA_MAX_DIM];     /* all >= 0 (checked) */
  uint8_t dim_order[PTERA_MAX_DIM]; /* a permutation of 0..dim-1 (checked) */
  uint32_t data_buffer_idx;
  int32_t storage_offset;
  bool has_allocation;
  uint32_t memory_id;     /* raw (1-based) */
  uint64_t memory_offset; /* high << 32 | low */
  bool has_extra;
  bool external;          /* extra_tensor_info.location == EXTERNAL */
  pf_str fqn;             /* fully_qualified_name (ptr NULL when absent) */
  uint64_t nbytes;        /* numel * element size, overflow-checked */
} pf_tensor;

typedef struct pf_value {
  uint8_t type; /* PF_VAL_* */
  union {
    int64_t i;
    bool b;
    double d;
    pf_tensor *tensor;
    pf_str str;
    /* INT_LIST/TENSOR_LIST/OPT_TENSOR_LIST: value indices (checked < nvalues;
     * -1 allowed only in OPT_TENSOR_LIST). */
    struct { int32_t *items; uint32_t len; } idx;
    struct { double *items; uint32_t len; } doubles; /* copied, aligned */
    struct { uint8_t *items; uint32_t len; } bools;  /* copied, 0/1 */
  } u;
} pf_value;

typedef struct pf_instr {
  uint8_t type; /* PF_INSTR_* */
  /* KERNEL: a = op_index (< nops); DELEGATE: a = delegate_index (< ndelegates);
   * MOVE: a = from, b = to; JUMP_FALSE: a = cond value, b = destination
   * (0..ninstrs of its chain); FREE: a = value. All value indices checked. */
  int32_t a, b;
  int32_t *args; /* KERNEL/DELEGATE: value indices, checked */
  uint32_t nargs;
} pf_instr;

typedef struct pf_chain {
  pf_instr *instrs;
  uint32_t ninstrs;
} pf_chain;

typedef struct pf_operator {
  pf_str name;
  pf_str overload; /* len 0 when absent */
} pf_operator;

typedef struct pf_compile_spec {
  pf_str key;
  pf_bytes value;
} pf_compile_spec;

typedef struct pf_delegate {
  pf_str id;
  uint8_t location; /* 0 INLINE, 1 SEGMENT */
  uint32_t index;   /* not yet checked against the list; use pf_pte_delegate_blob */
  pf_compile_spec *specs;
  uint32_t nspecs;
} pf_delegate;

typedef struct pf_plan {
  pf_str name;
  pf_value *values;
  uint32_t nvalues;
  int32_t *inputs;  /* checked value indices */
  uint32_t ninputs;
  int32_t *outputs; /* checked value indices */
  uint32_t noutputs;
  pf_chain *chains;
  uint32_t nchains;
  pf_operator *ops;
  uint32_t nops;
  pf_delegate *delegates;
  uint32_t ndelegates;
  int64_t *buffer_sizes; /* non_const_buffer_sizes, [0] reserved */
  uint32_t nbuffer_sizes;
} pf_plan;

typedef struct pf_segment {
  uint64_t offset, size; /* relative to segment_base */
} pf_segment;

typedef struct pf_subsegments {
  bool present;
  uint32_t segment_index;
  uint64_t *offsets;
  uint32_t noffsets;
} pf_subsegments;

typedef struct pf_named {
  pf_str key;
  uint32_t segment_index;
} pf_named;

typedef struct pf_pte {
  const uint8_t *file; /* the whole file */
  uint64_t file_size;
  /* Extended header (docs/PTE.md §3). */
  bool has_header;
  uint32_t header_length;
  uint64_t program_size;
  uint64_t segment_base;
  uint64_t segment_data_size;
  uint32_t version;

  pf_plan *plans;
  uint32_t nplans;
  pf_segment *segments;
  uint32_t nsegments;
  pf_subsegments constant_segment;
  pf_bytes *constant_buffer; /* legacy */
  uint32_t nconstant_buffer;
  pf_bytes *delegate_data;   /* backend_delegate_data (inline) */
  uint32_t ndelegate_data;
  pf_subsegments mutable_data; /* mutable_data_segments[0] */
  uint32_t nmutable_data;      /* entries in the file (only [0] is used) */
  pf_named *named;
  uint32_t nnamed;
} pf_pte;

/* Tells whether bytes start like a program: 1 for ET12, 0 otherwise. */
PT_FUNC int pf_pte_identify(const uint8_t *data, size_t size);

/* Parses and verifies data[0..size) (the whole file). On failure returns
 * InvalidProgram (or NotSupported/MemoryAllocationFailed/...) with a message
 * that says what is wrong and where ("method 'forward' value 12: tensor
 * sizes vector runs past the end of the file"). Files with an identifier
 * other than ET12 fail with InvalidProgram naming what was found. */
PT_FUNC ptera_status pf_pte_parse(const uint8_t *data, uint64_t size, pt_arena *arena, pf_pte *out,
                                  pt_err *err);

/* Bytes of segment i (checked against the file). */
PT_FUNC ptera_status pf_pte_segment(const pf_pte *p, uint32_t index, pf_bytes *out, pt_err *err);
/* Constant data for data_buffer_idx (docs/PTE.md §7): nbytes bytes, checked. */
PT_FUNC ptera_status pf_pte_constant(const pf_pte *p, uint32_t idx, uint64_t nbytes,
                                     const uint8_t **out, pt_err *err);
/* Initial bytes of a mutable tensor (docs/PTE.md §8). */
PT_FUNC ptera_status pf_pte_mutable(const pf_pte *p, uint32_t idx, uint64_t nbytes,
                                    const uint8_t **out, pt_err *err);
/* A delegate's processed blob (inline or segment). */
PT_FUNC ptera_status pf_pte_delegate_blob(const pf_pte *p, const pf_delegate *d, pf_bytes *out,
                                          pt_err *err);
/* Named data by key (whole segment); NotFound when absent. */
PT_FUNC ptera_status pf_pte_named(const pf_pte *p, const char *key, size_t key_len, pf_bytes *out,
                                  pt_err *err);

#endif

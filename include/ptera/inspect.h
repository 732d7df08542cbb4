/* ptera — a program's structure without running it: the file's layout, each
 * method's values, instructions and delegates, the named data of a .pte and
 * the entries of a .ptd data file (docs/PTE.md, docs/PTD.md). `ptera inspect`
 * is built on these.
 *
 * Every query fills a sized info struct (ptera/export.h) and returns a
 * status: InvalidArgument for a NULL or too-small struct or an index out of
 * range, NotFound for a method the program does not have (with
 * ptera_program_errmsg set). Methods are named as elsewhere in the API: the
 * first method whose name equals the C string given.
 *
 * Strings from a file (names, keys) are NUL-terminated and valid while the
 * program (or data file) lives; each comes with its length in bytes, which
 * counts a NUL byte the name may hold of its own. They are the file's
 * bytes, not checked to be text: escape them before printing. */
#ifndef PTERA_INSPECT_H
#define PTERA_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The file as a whole. A sized struct: initialise with PTERA_PROGRAM_INFO_INIT. */
typedef struct ptera_program_info {
  size_t struct_size;             /* sizeof(ptera_program_info) */
  uint64_t file_size;             /* the program's bytes (a bundle's embedded program alone) */
  bool has_extended_header;       /* "eh00" (docs/PTE.md §3) */
  uint32_t extended_header_length;
  uint64_t program_size;          /* header fields; 0 without the header */
  uint64_t segment_base_offset;
  uint64_t segment_data_size;
  size_t num_methods;
  size_t num_segments;
  size_t num_named_data;          /* Program.named_data entries (attached .ptd files not counted) */
  bool has_constant_segment;      /* Program.constant_segment */
  uint32_t constant_segment;      /* its segment index */
  size_t num_constant_entries;    /* its offsets */
  size_t num_legacy_constants;    /* Program.constant_buffer entries (older files) */
  bool has_mutable_data;          /* Program.mutable_data_segments[0] */
  uint32_t mutable_data_segment;
  size_t num_mutable_entries;
  /* version 1 ends here */
} ptera_program_info;

#define PTERA_PROGRAM_INFO_INIT PTERA_STRUCT_INIT(ptera_program_info)

PTERA_API ptera_status ptera_program_get_info(const ptera_program *program, ptera_program_info *out);

/* Segment i: offset relative to segment_base_offset, and size (checked to
 * lie inside the file). Initialise with PTERA_SEGMENT_INFO_INIT. */
typedef struct ptera_segment_info {
  size_t struct_size; /* sizeof(ptera_segment_info) */
  uint64_t offset;
  uint64_t size;
  /* version 1 ends here */
} ptera_segment_info;

#define PTERA_SEGMENT_INFO_INIT PTERA_STRUCT_INIT(ptera_segment_info)

PTERA_API ptera_status ptera_program_segment(const ptera_program *program, size_t index,
                                             ptera_segment_info *out);

/* Named data entry i of the .pte (Program.named_data): a key and the
 * segment holding its bytes. Initialise with PTERA_NAMED_DATA_INFO_INIT. */
typedef struct ptera_named_data_info {
  size_t struct_size; /* sizeof(ptera_named_data_info) */
  const char *key;
  size_t key_len;
  uint32_t segment;   /* as stored in the file */
  bool has_segment;   /* false: the file names a segment it does not have */
  uint64_t nbytes;    /* the segment's size; 0 without one */
  /* version 1 ends here */
} ptera_named_data_info;

#define PTERA_NAMED_DATA_INFO_INIT PTERA_STRUCT_INIT(ptera_named_data_info)

PTERA_API ptera_status ptera_program_named_data_entry(const ptera_program *program, size_t index,
                                                      ptera_named_data_info *out);

/* Where a tensor's initial data comes from. */
typedef enum ptera_data_source {
  PTERA_DATA_NONE = 0,     /* none: written while the method runs, or bound by the caller */
  PTERA_DATA_CONSTANT = 1, /* the program's constant data, used in place (data_index) */
  PTERA_DATA_MUTABLE = 2,  /* the mutable data segment, copied into planned memory at load (data_index) */
  PTERA_DATA_EXTERNAL = 3  /* a .ptd entry named key, used in place or, when planned, copied */
} ptera_data_source;

/* Value i of a method (docs/EXECUTION.md §3). Initialise with PTERA_VALUE_INFO_INIT. */
typedef struct ptera_value_info {
  size_t struct_size; /* sizeof(ptera_value_info) */
  ptera_tag tag;
  bool is_input;      /* listed in the method's inputs */
  bool is_output;     /* listed in the method's outputs */
  /* Int, Double, Bool: the value. String: its bytes. Lists: their length. */
  int64_t int_value;
  double double_value;
  bool bool_value;
  const char *string;
  size_t string_len;
  size_t list_len;
  /* Tensors: */
  ptera_dtype dtype;
  size_t dim;
  int32_t sizes[PTERA_MAX_DIM];     /* the upper bound for dynamic tensors */
  uint8_t dim_order[PTERA_MAX_DIM];
  ptera_dynamism dynamism;
  uint64_t nbytes;
  bool planned;           /* has memory in a planned buffer: */
  uint32_t memory_id;     /* allocation_info.memory_id, 1-based: planned buffer memory_id - 1
                             (ptera_program_method_buffer_size) */
  uint64_t memory_offset; /* byte offset in that buffer */
  ptera_data_source data;
  uint32_t data_index;    /* data_buffer_idx (CONSTANT, MUTABLE) */
  const char *key;        /* fully qualified name (EXTERNAL, and others that carry one); NULL if none */
  size_t key_len;
  /* version 1 ends here */
} ptera_value_info;

#define PTERA_VALUE_INFO_INIT PTERA_STRUCT_INIT(ptera_value_info)

PTERA_API ptera_status ptera_program_method_value(const ptera_program *program, const char *method,
                                                  size_t index, ptera_value_info *out);

/* Operator i of a method's operator table. Initialise with PTERA_OPERATOR_INFO_INIT. */
typedef struct ptera_operator_info {
  size_t struct_size; /* sizeof(ptera_operator_info) */
  const char *name;   /* "aten::add" */
  size_t name_len;
  const char *overload; /* "out"; "" for the default overload */
  size_t overload_len;
  /* version 1 ends here */
} ptera_operator_info;

#define PTERA_OPERATOR_INFO_INIT PTERA_STRUCT_INIT(ptera_operator_info)

PTERA_API ptera_status ptera_program_method_operator_info(const ptera_program *program, const char *method,
                                                          size_t index, ptera_operator_info *out);

typedef enum ptera_instruction_kind {
  PTERA_INSTRUCTION_KERNEL = 1,     /* KernelCall: operator_index */
  PTERA_INSTRUCTION_DELEGATE = 2,   /* DelegateCall: delegate_index */
  PTERA_INSTRUCTION_MOVE = 3,
  PTERA_INSTRUCTION_JUMP_FALSE = 4,
  PTERA_INSTRUCTION_FREE = 5
} ptera_instruction_kind;

/* Instruction i of a method, counting through its chains in order (as
 * ptera_method_info.num_instructions does). Initialise with
 * PTERA_INSTRUCTION_INFO_INIT. */
typedef struct ptera_instruction_info {
  size_t struct_size; /* sizeof(ptera_instruction_info) */
  ptera_instruction_kind kind;
  size_t chain;          /* the chain holding it (0: the one a method runs) */
  size_t operator_index; /* KERNEL: ptera_program_method_operator_info's index */
  size_t delegate_index; /* DELEGATE: ptera_program_method_delegate_info's index */
  size_t num_args;       /* KERNEL, DELEGATE: value arguments */
  /* version 1 ends here */
} ptera_instruction_info;

#define PTERA_INSTRUCTION_INFO_INIT PTERA_STRUCT_INIT(ptera_instruction_info)

PTERA_API ptera_status ptera_program_method_instruction(const ptera_program *program, const char *method,
                                                        size_t index, ptera_instruction_info *out);

/* Where a delegate's processed blob is stored. */
typedef enum ptera_delegate_location {
  PTERA_DELEGATE_INLINE = 0, /* Program.backend_delegate_data[index] */
  PTERA_DELEGATE_SEGMENT = 1 /* segment index */
} ptera_delegate_location;

/* Delegate i of a method. Initialise with PTERA_DELEGATE_INFO_INIT. */
typedef struct ptera_delegate_info {
  size_t struct_size; /* sizeof(ptera_delegate_info) */
  const char *id;     /* the backend it targets ("XnnpackBackend") */
  size_t id_len;
  ptera_delegate_location location;
  uint32_t index;     /* as stored in the file */
  size_t num_compile_specs;
  bool has_blob;      /* false: location and index name no blob of the file */
  uint64_t blob_size;
  /* version 1 ends here */
} ptera_delegate_info;

#define PTERA_DELEGATE_INFO_INIT PTERA_STRUCT_INIT(ptera_delegate_info)

PTERA_API ptera_status ptera_program_method_delegate_info(const ptera_program *program, const char *method,
                                                          size_t index, ptera_delegate_info *out);
/* The processed blob delegate i's backend is initialised with: read-only,
 * valid while the program lives. InvalidProgram (message in
 * ptera_program_errmsg) when the file has no such blob. */
PTERA_API ptera_status ptera_program_method_delegate_blob(const ptera_program *program, const char *method,
                                                          size_t index, const void **out_data,
                                                          size_t *out_size);

/* An XnnpackBackend blob (docs/XNNPACK.md) summarised. Initialise with
 * PTERA_XNNPACK_GRAPH_INFO_INIT. */
typedef struct ptera_xnnpack_graph_info {
  size_t struct_size;   /* sizeof(ptera_xnnpack_graph_info) */
  char identifier[5];   /* "XN01", NUL-terminated */
  bool has_header;      /* the XH00 header (else a bare flatbuffer of older files) */
  size_t num_nodes;
  size_t num_values;
  size_t num_inputs;    /* values flagged as graph inputs */
  size_t num_outputs;   /* values flagged as graph outputs */
  size_t num_constants; /* constant data entries */
  /* version 1 ends here */
} ptera_xnnpack_graph_info;

#define PTERA_XNNPACK_GRAPH_INFO_INIT PTERA_STRUCT_INIT(ptera_xnnpack_graph_info)

/* Parses and verifies blob[0..size) as the XNNPACK backend would, with
 * scratch memory from allocator (NULL: the default) released before it
 * returns. On failure the reason goes into message (message_size bytes,
 * NUL-terminated; may be NULL). */
PTERA_API ptera_status ptera_xnnpack_graph_describe(const void *blob, size_t size,
                                                    const ptera_allocator *allocator,
                                                    ptera_xnnpack_graph_info *out, char *message,
                                                    size_t message_size);

/* A .ptd data file (FlatTensor, docs/PTD.md) read on its own, for its
 * entries; a program uses one through ptera_program_attach_data_file. */
typedef struct ptera_datafile ptera_datafile;

/* Like the program loaders: a handle in *out even on failure (read
 * ptera_datafile_errmsg, then destroy it). options may be NULL (its
 * allocator and max_file_size apply). */
PTERA_API ptera_status ptera_datafile_load_file(const char *path, const ptera_load_options *options,
                                                ptera_datafile **out);
/* Uses the caller's bytes in place when 16-byte aligned (copies otherwise);
 * they must outlive the handle. */
PTERA_API ptera_status ptera_datafile_load_buffer(const void *data, size_t size,
                                                  const ptera_load_options *options, ptera_datafile **out);
PTERA_API void ptera_datafile_destroy(ptera_datafile *datafile);
PTERA_API const char *ptera_datafile_errmsg(const ptera_datafile *datafile);

/* Initialise with PTERA_DATAFILE_INFO_INIT. */
typedef struct ptera_datafile_info {
  size_t struct_size; /* sizeof(ptera_datafile_info) */
  uint64_t file_size;
  bool legacy;        /* the FlatTensor layout before June 2025 (tensors + tensor_alignment) */
  uint64_t segment_base_offset;
  uint64_t segment_data_size;
  size_t num_entries;
  /* version 1 ends here */
} ptera_datafile_info;

#define PTERA_DATAFILE_INFO_INIT PTERA_STRUCT_INIT(ptera_datafile_info)

PTERA_API ptera_status ptera_datafile_get_info(const ptera_datafile *datafile, ptera_datafile_info *out);

/* Entry i: its key, where its bytes lie and, when the file gives one, its
 * tensor layout. Initialise with PTERA_DATAFILE_ENTRY_INIT. */
typedef struct ptera_datafile_entry {
  size_t struct_size; /* sizeof(ptera_datafile_entry) */
  const char *key;
  size_t key_len;
  uint64_t offset;    /* from the start of the file */
  uint64_t nbytes;
  uint32_t alignment; /* the largest power of two up to 4096 dividing offset */
  bool has_layout;    /* dtype, dim, sizes, dim_order are set */
  ptera_dtype dtype;
  size_t dim;
  int32_t sizes[PTERA_MAX_DIM];
  uint8_t dim_order[PTERA_MAX_DIM];
  /* version 1 ends here */
} ptera_datafile_entry;

#define PTERA_DATAFILE_ENTRY_INIT PTERA_STRUCT_INIT(ptera_datafile_entry)

PTERA_API ptera_status ptera_datafile_get_entry(const ptera_datafile *datafile, size_t index,
                                                ptera_datafile_entry *out);

#ifdef __cplusplus
}
#endif
#endif

/* ptera — programs (.pte) and the data files (.ptd) they use. */
#ifndef PTERA_PROGRAM_H
#define PTERA_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "status.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Shareable across threads once loaded (the rules are in ptera/ptera.h). */
typedef struct ptera_program ptera_program;

/* Limits a loader enforces; zero fields take the defaults (PTERA_DEFAULT_MAX_* in config.h). A sized
 * struct (ptera/export.h): initialise with PTERA_LOAD_OPTIONS_INIT. */
typedef struct ptera_load_options {
  size_t struct_size;               /* sizeof(ptera_load_options) */
  const ptera_allocator *allocator; /* NULL: platform default */
  uint64_t max_file_size;           /* default PTERA_DEFAULT_MAX_FILE_SIZE, 4 GiB */
  uint64_t max_planned_bytes;       /* per method, default 8 GiB */
  uint32_t max_values;              /* per method, default 16M */
  uint32_t max_instructions;        /* per method, default 16M */
  /* version 1 ends here */
} ptera_load_options;

#define PTERA_LOAD_OPTIONS_INIT PTERA_STRUCT_INIT(ptera_load_options)

/* Reads size bytes at offset into dst; returns 0 on success. */
typedef int (*ptera_read_fn)(void *user_data, uint64_t offset, void *dst, size_t size);

/* Every load function returns a status and, unless memory for the handle
 * itself ran out, a program handle in *out even on failure: read
 * ptera_program_errmsg() from it, then destroy it (SQLite's open pattern).
 * options may be NULL. */
/* Maps the file read-only (zero copy). */
PTERA_API ptera_status ptera_program_load_file(const char *path, const ptera_load_options *options,
                                     ptera_program **out);
/* Uses the caller's bytes in place when 16-byte aligned (copies otherwise);
 * they must outlive the program. */
PTERA_API ptera_status ptera_program_load_buffer(const void *data, size_t size,
                                       const ptera_load_options *options, ptera_program **out);
/* Reads size bytes through read into library memory. */
PTERA_API ptera_status ptera_program_load_callback(ptera_read_fn read, void *user_data, uint64_t size,
                                         const ptera_load_options *options, ptera_program **out);
PTERA_API void ptera_program_destroy(ptera_program *program);

/* The exact bytes ptera_program_load_buffer(data, size, options) takes from
 * a ptera_buffer_allocator (alloc.h) whose memory is 64-byte aligned (add 63
 * otherwise): the query loads the program once through a measuring
 * allocator backed by options->allocator (NULL: the default; a PTERA_NO_HEAP
 * build must name one, e.g. a buffer allocator over scratch memory, which
 * gets everything back). The figure holds for this build and these options;
 * attached data files are not part of it. Returns the load's status. */
PTERA_API ptera_status ptera_program_memory_needed(const void *data, size_t size,
                                                   const ptera_load_options *options, size_t *out);

/* The last error's message ("" when none). */
PTERA_API const char *ptera_program_errmsg(const ptera_program *program);

/* Attaches a .ptd (FlatTensor) file; EXTERNAL tensors are resolved by key
 * across every attached file, and a key present in two files is an error.
 * Attach before creating methods. */
PTERA_API ptera_status ptera_program_attach_data_file(ptera_program *program, const char *path);
PTERA_API ptera_status ptera_program_attach_data_buffer(ptera_program *program, const void *data, size_t size);

/* The program's named data map: blobs stored by key in the .pte
 * (Program.named_data) and every entry of the attached .ptd files (these
 * first). Read it with ptera_named_data_get (ptera/backend.h): an absent key
 * gives NotFound. Valid while the program lives; NULL for a NULL program. */
typedef struct ptera_named_data ptera_named_data;
PTERA_API const ptera_named_data *ptera_program_named_data(const ptera_program *program);

/* Methods, in file order. */
PTERA_API size_t ptera_program_method_count(const ptera_program *program);
PTERA_API const char *ptera_program_method_name(const ptera_program *program, size_t index);

/* A sized struct (ptera/export.h): initialise with PTERA_METHOD_INFO_INIT. */
typedef struct ptera_method_info {
  size_t struct_size; /* sizeof(ptera_method_info) */
  const char *name;
  size_t num_inputs;
  size_t num_outputs;
  size_t num_planned_buffers;
  size_t num_instructions;
  size_t num_operators;
  size_t num_delegates;
  size_t num_values;
  /* version 1 ends here */
  size_t name_len; /* bytes of name (a name from a file may hold a NUL byte) */
  /* version 2 ends here */
} ptera_method_info;

#define PTERA_METHOD_INFO_INIT PTERA_STRUCT_INIT(ptera_method_info)

/* Input or output description. A sized struct (ptera/export.h):
 * initialise with PTERA_IO_INFO_INIT. */
typedef struct ptera_io_info {
  size_t struct_size; /* sizeof(ptera_io_info) */
  ptera_tag tag;
  /* Tensors only: */
  ptera_dtype dtype;
  size_t dim;
  int32_t sizes[PTERA_MAX_DIM]; /* the upper bound for dynamic tensors */
  uint8_t dim_order[PTERA_MAX_DIM];
  ptera_dynamism dynamism;
  bool memory_planned;
  uint64_t nbytes;
  /* version 1 ends here */
  size_t value_index; /* the method value it is (ptera_program_method_value, ptera/inspect.h) */
  /* version 2 ends here */
} ptera_io_info;

#define PTERA_IO_INFO_INIT PTERA_STRUCT_INIT(ptera_io_info)

/* NotFound when the method does not exist; InvalidArgument for a bad index
 * or struct_size. */
PTERA_API ptera_status ptera_program_method_info(const ptera_program *program, const char *method,
                                       ptera_method_info *out);
PTERA_API ptera_status ptera_program_method_input(const ptera_program *program, const char *method,
                                        size_t index, ptera_io_info *out);
PTERA_API ptera_status ptera_program_method_output(const ptera_program *program, const char *method,
                                         size_t index, ptera_io_info *out);
PTERA_API ptera_status ptera_program_method_buffer_size(const ptera_program *program, const char *method,
                                              size_t index, uint64_t *out);
/* Operator k of a method: name ("aten::add") and overload ("out", or "" when
 * the default overload). */
PTERA_API ptera_status ptera_program_method_operator(const ptera_program *program, const char *method,
                                           size_t index, const char **out_name,
                                           const char **out_overload);
/* Delegate id k of a method. */
PTERA_API ptera_status ptera_program_method_delegate(const ptera_program *program, const char *method,
                                           size_t index, const char **out);

#ifdef __cplusplus
}
#endif
#endif

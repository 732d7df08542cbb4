/* ptera — method instances: bind inputs, execute, read outputs. */
#ifndef PTERA_METHOD_H
#define PTERA_METHOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "program.h"
#include "tensor.h"
#include "threadpool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Used by one thread at a time; different methods run concurrently
 * (ptera/ptera.h). */
typedef struct ptera_method ptera_method;

/* A sized struct (ptera/export.h): initialise with PTERA_METHOD_OPTIONS_INIT. */
typedef struct ptera_method_options {
  size_t struct_size;               /* sizeof(ptera_method_options) */
  const ptera_allocator *allocator; /* NULL: the program's */
  /* Caller-supplied planned buffers (one per ptera_method_info
   * num_planned_buffers, each at least its size, 16-byte aligned), or NULL
   * to let the library allocate zero-filled ones. */
  void *const *planned_buffers;
  size_t num_planned_buffers;
  /* Kernel scratch arena; 0 = the largest workspace a kernel's prepare step
   * declared, or what the portable kernels may need for this method's values
   * (8 bytes x max(rank, 2) per element of its largest tensor, 8 per item of
   * its longest list, plus 1 KiB; at least 4 KiB, at most 1 MiB), whichever
   * is larger. A size below a declared workspace makes that kernel fail
   * (or take a slower path) at run. */
  size_t temp_size;
  /* Threads for kernels' parallel loops (threadpool.h); NULL = the calling
   * thread only. Must outlive the method; may be shared between methods. */
  ptera_threadpool *threadpool;
  /* PTERA_METHOD_* bits; 0 = the defaults. */
  uint32_t flags;
  /* version 1 ends here */
} ptera_method_options;

#define PTERA_METHOD_OPTIONS_INIT PTERA_STRUCT_INIT(ptera_method_options)

/* Runs every instruction as written: no load-time fusion of instruction
 * groups into one kernel (fused groups show in profiles as "fused:..."),
 * no elided copies ("elided:...", "inplace:..."). */
#define PTERA_METHOD_NO_FUSION 1u

/* Loads a method: materialises values, resolves every operator and backend.
 * Returns a handle in *out even on failure (read ptera_method_errmsg, then
 * destroy it), unless memory for the handle ran out. options may be NULL. */
PTERA_API ptera_status ptera_method_create(ptera_program *program, const char *name,
                                 const ptera_method_options *options, ptera_method **out);
PTERA_API void ptera_method_destroy(ptera_method *method);

/* The exact bytes ptera_method_create(program, name, options) takes from a
 * ptera_buffer_allocator with 64-byte aligned memory: method metadata,
 * planned buffers (unless options supplies them), the temp arena, what
 * prepare steps and delegates allocate. Execute takes nothing more. The
 * query creates the method once through a measuring allocator backed by
 * options->allocator (NULL: the program's). On failure the program's
 * errmsg says why. */
PTERA_API ptera_status ptera_method_memory_needed(ptera_program *program, const char *name,
                                                  const ptera_method_options *options, size_t *out);
PTERA_API const char *ptera_method_errmsg(const ptera_method *method);

PTERA_API size_t ptera_method_input_count(const ptera_method *method);
PTERA_API size_t ptera_method_output_count(const ptera_method *method);

/* Tensor input: data is laid out in the method tensor's dim order. A
 * memory-planned input is copied in; an unplanned one points at data, which
 * must outlive execution. sizes may differ from the program's only for
 * dynamic-shape inputs (within their bound). */
PTERA_API ptera_status ptera_method_set_input_tensor(ptera_method *method, size_t index, ptera_dtype dtype,
                                           size_t dim, const int32_t *sizes, const void *data,
                                           size_t nbytes);
/* Scalar inputs must equal the value the program was exported with. */
PTERA_API ptera_status ptera_method_set_input_int(ptera_method *method, size_t index, int64_t value);
PTERA_API ptera_status ptera_method_set_input_double(ptera_method *method, size_t index, double value);
PTERA_API ptera_status ptera_method_set_input_bool(ptera_method *method, size_t index, bool value);
PTERA_API ptera_status ptera_method_set_input_none(ptera_method *method, size_t index);

/* Storage for an unplanned output tensor (at least its nbytes). */
PTERA_API ptera_status ptera_method_set_output_buffer(ptera_method *method, size_t index, void *data,
                                            size_t size);

/* Runs every instruction. Makes no heap allocation. */
PTERA_API ptera_status ptera_method_execute(ptera_method *method);

/* The output value (valid until the next execute or destroy). */
PTERA_API const ptera_value *ptera_method_output(const ptera_method *method, size_t index);
/* The input value as bound. */
PTERA_API const ptera_value *ptera_method_input(const ptera_method *method, size_t index);

/* ---- profiling and memory ---- */

typedef enum ptera_instr_kind {
  PTERA_INSTR_KERNEL = 0,
  PTERA_INSTR_DELEGATE = 1,
  PTERA_INSTR_OTHER = 2 /* move, jump_false, free */
} ptera_instr_kind;

typedef struct ptera_instr_event {
  uint32_t chain, index; /* chain and instruction index */
  ptera_instr_kind kind;
  const char *name;      /* "aten::add.out", the delegate id, or "move"/"jump_false"/"free" */
  int end;               /* 0 before the instruction runs, 1 after (also when it failed) */
} ptera_instr_event;

typedef void (*ptera_instr_hook)(void *user, const ptera_instr_event *ev);

/* Calls hook before and after every instruction execute runs (a jump runs
 * some instructions more than once, or not at all). NULL hook = off (one
 * branch per instruction). The hook takes its own timestamps; it must not
 * call back into this method. */
PTERA_API void ptera_method_set_instr_hook(ptera_method *method, ptera_instr_hook hook, void *user);

/* A sized struct (ptera/export.h): initialise with PTERA_METHOD_MEMORY_INIT. */
typedef struct ptera_method_memory {
  size_t struct_size;   /* sizeof(ptera_method_memory) */
  size_t arena_bytes;   /* method metadata (values, tables) */
  size_t planned_bytes; /* memory-planned buffers (the library's or the caller's) */
  size_t temp_bytes;    /* kernel scratch arena, sized from the largest declared workspace */
  size_t packed_bytes;  /* prepare-time allocations (packed weights) of kernels, and what
                         * delegates hold from their init allocator */
  /* version 1 ends here */
} ptera_method_memory;

#define PTERA_METHOD_MEMORY_INIT PTERA_STRUCT_INIT(ptera_method_memory)

/* What a loaded method holds; InvalidState when it did not load,
 * InvalidArgument for a bad struct_size. */
PTERA_API ptera_status ptera_method_get_memory(const ptera_method *method, ptera_method_memory *out);

#ifdef __cplusplus
}
#endif
#endif

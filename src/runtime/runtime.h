/* Runtime internals: the program and method objects. Prefix pr_. */
#ifndef PTERA_RUNTIME_H
#define PTERA_RUNTIME_H

#include "core/core.h"
#include "format/ptd.h"
#include "format/pte.h"
#include "ptera/backend.h"
#include "ptera/kernel.h"
#include "ptera/method.h"
#include "ptera/program.h"

/* The first version of each sized struct (ptera/export.h): the smallest
 * struct_size the library accepts. Fixed forever once released. */
#define PR_LOAD_OPTIONS_V1_SIZE PT_SIZE_THROUGH(ptera_load_options, max_instructions)
#define PR_METHOD_OPTIONS_V1_SIZE PT_SIZE_THROUGH(ptera_method_options, flags)
#define PR_METHOD_INFO_V1_SIZE PT_SIZE_THROUGH(ptera_method_info, num_values)
#define PR_IO_INFO_V1_SIZE PT_SIZE_THROUGH(ptera_io_info, nbytes)
#define PR_METHOD_MEMORY_V1_SIZE PT_SIZE_THROUGH(ptera_method_memory, packed_bytes)

/* Bytes the library holds: mapped, copied, or borrowed from the caller. */
typedef struct pr_bytes {
  const uint8_t *data;
  uint64_t size;
  void *map;      /* pr_bytes_unmap on release */
  void *owned;    /* free on release */
  const ptera_allocator *allocator;
} pr_bytes;

/* The platform layer (src/platform/): maps a file read-only, or fails with
 * NotSupported where the build has no file system. */
PT_FUNC ptera_status pr_bytes_map_file(pr_bytes *b, const char *path, uint64_t max_size,
                                       const ptera_allocator *a, pt_err *err);
PT_FUNC ptera_status pr_bytes_from_buffer(pr_bytes *b, const void *data, size_t size,
                                          const ptera_allocator *a, pt_err *err);
PT_FUNC void pr_bytes_unmap(void *map, uint64_t size);
PT_FUNC void pr_bytes_release(pr_bytes *b);

typedef struct pr_datafile {
  struct pr_datafile *next;
  char name[256]; /* path or "<buffer N>", for messages */
  pr_bytes bytes;
  pf_ptd ptd;
} pr_datafile;

struct ptera_named_data {
  const struct ptera_program *program;
};

struct ptera_program {
  const ptera_allocator *allocator;
  ptera_load_options options;
  pt_err err;
  pt_arena arena;
  pr_bytes bytes;
  pf_pte pte;
  bool loaded;
  pr_datafile *files; /* attached .ptd files, in attach order */
  size_t nfiles;
  ptera_named_data named_data;
};

typedef struct pr_delegate {
  const ptera_backend *backend;
  void *handle;
  bool initialized;
  const uint32_t *written; /* the args execute writes (ABI v3 init); NULL = any */
  size_t nwritten;
} pr_delegate;

struct ptera_method {
  ptera_program *program;
  const pf_plan *plan;
  const ptera_allocator *allocator;
  pt_err err;
  pt_arena arena;
  ptera_value *values;
  uint32_t nvalues;
  uint8_t **buffers;    /* planned buffers, [0] unused */
  uint64_t *buffer_sizes;
  uint32_t nbuffers;    /* including the reserved [0] */
  bool owns_buffers;
  uint8_t *temp;
  size_t temp_size;
  ptera_kernel_fn *kernels; /* per operator */
  ptera_kernel_prepare_fn *prepares; /* per operator, NULL when none */
  const char **op_names;    /* per operator, "ns::op.overload" */
  bool *writes_first;       /* per operator: writes its first argument (et_copy_index), else its last */
  pr_delegate *delegates;
  bool *input_set;
  bool initialized;
  /* Per instruction, flat over chains (chain c's instruction k at
   * chain_base[c] + k): the argument pointers of a KERNEL or DELEGATE call,
   * built at load (method_load.c) so that execute needs no stack array, and
   * the state of a prepare step (method_prepare.c). */
  size_t *chain_base;
  ptera_value ***argv;
  void **states;
  struct pr_packed *packed; /* prepare-time allocations, freed at destroy */
  size_t packed_bytes;
  size_t max_workspace;     /* largest declared workspace */
  size_t delegate_temp;     /* largest scratch a delegate's init asked for */
  ptera_threadpool *pool;   /* from the options, or NULL */
  ptera_allocator delegate_allocator; /* the method's, counting (delegate_alloc.c) */
  size_t delegate_bytes;    /* what delegates hold through it */
  /* Load-time fusion (fuse.c): per instruction, flat as states, the fused
   * group that starts there, or NULL. NULL when nothing was fused. */
  struct pr_fused **fused;
  ptera_instr_hook hook;    /* profiling, or NULL */
  void *hook_user;
};

/* The plan of a method by name, or NULL. */
PT_FUNC const pf_plan *pr_find_plan(const ptera_program *p, const char *name);
/* The same, or NULL with NotFound set in the program's error (the method
 * queries of method_meta.c and inspect.c). */
PT_FUNC const pf_plan *pr_plan_or_fail(const ptera_program *p, const char *name);
/* The API's tag for a value type (PF_VAL_*). */
PT_FUNC ptera_tag pr_tag_of(uint8_t type);
/* External tensor data by key across attached files; NotFound when absent. */
PT_FUNC const pf_ptd_entry *pr_find_external(const ptera_program *p, const char *key, size_t len,
                                             const pr_datafile **out_file);

/* Kernel lookup over user then built-in kernels. */
PT_FUNC ptera_kernel_fn pr_find_kernel(const char *name, size_t len);
/* The same, with the prepare step (a copy in *out); false when none. */
PT_FUNC bool pr_find_kernel_def(const char *name, size_t len, ptera_kernel_def *out);

PT_FUNC ptera_status pr_method_load_values(ptera_method *m);
PT_FUNC ptera_status pr_method_load_delegates(ptera_method *m);
PT_FUNC ptera_status pr_method_load_instructions(ptera_method *m);
/* Allocates the per-instruction states (flat over chains: chain_base, set
 * with the argument arrays by pr_method_load_instructions). */
PT_FUNC ptera_status pr_method_index_instructions(ptera_method *m);
/* Runs each KERNEL instruction's prepare step (after values, delegates and
 * instructions are loaded); the states and allocations are the method's. */
PT_FUNC ptera_status pr_method_prepare(ptera_method *m);
/* Replaces instruction groups by fused kernels where the program allows it
 * (fuse.c); after instructions are loaded, before pr_method_prepare, which
 * then skips the instructions a group covers. */
PT_FUNC ptera_status pr_method_fuse(ptera_method *m);
/* The fused group starting at chain c's instruction k, or NULL (always in a
 * build without PTERA_FUSION, where fuse*.c are not compiled). */
static inline struct pr_fused *pr_method_fused_at(const ptera_method *m, uint32_t c, uint32_t k) {
  return m->fused ? m->fused[m->chain_base[c] + k] : NULL;
}
PT_FUNC void pr_method_release_prepared(ptera_method *m);
/* Sets up m->delegate_allocator (before delegates are initialised). */
PT_FUNC void pr_method_init_delegate_allocator(ptera_method *m);
/* Tells the profiling hook about instruction k of chain c (end: 0 before, 1 after). */
PT_FUNC void pr_method_hook(ptera_method *m, uint32_t c, uint32_t k, const pf_instr *in, int end);
/* The same for a fused group starting there (a KERNEL event named for the group). */
PT_FUNC void pr_method_hook_fused(ptera_method *m, uint32_t c, uint32_t k, const char *name, int end);
/* A kernel call must not write read-only program data: checked at load, and
 * again before each call, since a MoveCall can route a constant into a slot
 * that a later kernel writes. k is the instruction index, for the message. */
PT_FUNC ptera_status pr_check_writable(ptera_method *m, const pf_instr *in, uint32_t k);

#endif

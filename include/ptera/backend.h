/* ptera — the backend (delegate) interface. A backend runs the subgraphs a
 * program delegates to the id it registers under ("XnnpackBackend"). */
#ifndef PTERA_BACKEND_H
#define PTERA_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2 added the fields marked "v2" to the two context structs (at
 * their ends), version 3 the init context's "v3" ones. Backends built against
 * an older version still register and run: they never read the new fields,
 * and the runtime reads a field a backend sets only from backends of its
 * version or later. */
#define PTERA_BACKEND_ABI_VERSION 3u
#define PTERA_BACKEND_ABI_VERSION_MIN 1u

/* The method's thread pool (include/ptera/threadpool.h); NULL = one thread. */
typedef struct ptera_threadpool ptera_threadpool;

typedef struct ptera_compile_spec {
  const char *key;     /* NUL-terminated */
  const void *value;
  size_t size;
} ptera_compile_spec;

/* Read-only access to named blobs (the .pte's named_data and attached .ptd
 * files, .ptd first). Returns NotFound when the key is absent. The bytes
 * returned stay valid, unchanged, until the program is destroyed (which is
 * after every method and delegate handle of it): a backend may use them in
 * place for its whole lifetime instead of copying. They may be read-only
 * mapped memory and carry no alignment promise beyond 1. */
typedef struct ptera_named_data ptera_named_data;
PTERA_API ptera_status ptera_named_data_get(const ptera_named_data *map, const char *key, size_t key_len,
                                  const void **out_data, size_t *out_size);

typedef struct ptera_backend_init_ctx {
  const char *method_name;
  const ptera_allocator *allocator;   /* for the handle and its buffers */
  const ptera_named_data *named_data; /* may be NULL */
  char *message;                      /* write a reason here on failure */
  size_t message_size;
  /* v2 */
  ptera_threadpool *threadpool;       /* the pool execute will get (for sizing work); may be NULL */
  size_t temp_bytes;                  /* out: scratch execute needs in exec ctx->temp (default 0) */
  uint64_t max_memory_bytes;          /* cap on the handle's own buffers (the program's
                                         max_planned_bytes); 0 = none. Past it: OutOfResources */
  /* v3 */
  const uint32_t *written_args;       /* out: the indices of execute's args the delegate may
                                         write (its outputs), valid until destroy; NULL (the
                                         default) = any tensor argument may be written. Lets
                                         the runtime update a KV cache in place around it */
  size_t num_written_args;
} ptera_backend_init_ctx;

typedef struct ptera_backend_exec_ctx {
  const char *method_name;
  char *message;
  size_t message_size;
  /* v2 */
  void *temp;                   /* scratch of temp_size >= the init's temp_bytes, 64-byte aligned;
                                   shared with kernels, contents undefined on entry */
  size_t temp_size;
  ptera_threadpool *threadpool; /* for parallel work (ptera_threadpool_parallel_for); may be NULL */
} ptera_backend_exec_ctx;

typedef struct ptera_backend {
  uint32_t abi_version; /* PTERA_BACKEND_ABI_VERSION */
  const char *name;     /* the delegate id it serves */
  bool (*is_available)(void);
  /* blob stays valid for the method's lifetime. */
  ptera_status (*init)(ptera_backend_init_ctx *ctx, const void *blob, size_t blob_size,
                       const ptera_compile_spec *specs, size_t num_specs, void **out_handle);
  /* args: the delegate's inputs then its outputs (docs/EXECUTION.md §8.3). */
  ptera_status (*execute)(ptera_backend_exec_ctx *ctx, void *handle, ptera_value **args,
                          size_t nargs);
  void (*destroy)(void *handle); /* may be NULL */
} ptera_backend;

/* Registers a backend (the struct must outlive its use). Not thread-safe:
 * register before loading programs (ptera/ptera.h); init and execute may
 * then be called from several threads at once, each with its own handle. ABI version outside
 * PTERA_BACKEND_ABI_VERSION_MIN..PTERA_BACKEND_ABI_VERSION: NotSupported; duplicate name: InvalidArgument; more than
 * PTERA_MAX_BACKENDS: OutOfResources. */
PTERA_API ptera_status ptera_backend_register(const ptera_backend *backend);

/* Registered backends, then the built-in ones (XnnpackBackend). */
PTERA_API size_t ptera_backend_count(void);
PTERA_API const ptera_backend *ptera_backend_at(size_t index);
PTERA_API const ptera_backend *ptera_backend_find(const char *name, size_t name_len);

/* The names before 0.2 (ptera_<object>_<verb> since), kept for one release. */
PTERA_API PTERA_DEPRECATED("use ptera_backend_register") ptera_status
ptera_register_backend(const ptera_backend *backend);
PTERA_API PTERA_DEPRECATED("use ptera_backend_find") const ptera_backend *
ptera_find_backend(const char *name, size_t name_len);

#ifdef __cplusplus
}
#endif
#endif

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

#define PTERA_BACKEND_ABI_VERSION 1u
#define PTERA_MAX_BACKENDS 16

typedef struct ptera_compile_spec {
  const char *key;     /* NUL-terminated */
  const void *value;
  size_t size;
} ptera_compile_spec;

/* Read-only access to named blobs (the .pte's named_data and attached .ptd
 * files, .ptd first). Returns NotFound when the key is absent. */
typedef struct ptera_named_data ptera_named_data;
PTERA_API ptera_status ptera_named_data_get(const ptera_named_data *map, const char *key, size_t key_len,
                                  const void **out_data, size_t *out_size);

typedef struct ptera_backend_init_ctx {
  const char *method_name;
  const ptera_allocator *allocator;   /* for the handle and its buffers */
  const ptera_named_data *named_data; /* may be NULL */
  char *message;                      /* write a reason here on failure */
  size_t message_size;
} ptera_backend_init_ctx;

typedef struct ptera_backend_exec_ctx {
  const char *method_name;
  char *message;
  size_t message_size;
} ptera_backend_exec_ctx;

typedef struct ptera_backend {
  uint32_t abi_version; /* PTERA_BACKEND_ABI_VERSION */
  const char *name;     /* the delegate id it serves */
  bool (*is_available)(void);
  /* blob stays valid for the method's lifetime. */
  ptera_status (*init)(ptera_backend_init_ctx *ctx, const void *blob, size_t blob_size,
                       const ptera_compile_spec *specs, size_t num_specs, void **out_handle);
  /* args: the delegate's inputs then its outputs (EXECUTION.md §8.3). */
  ptera_status (*execute)(ptera_backend_exec_ctx *ctx, void *handle, ptera_value **args,
                          size_t nargs);
  void (*destroy)(void *handle); /* may be NULL */
} ptera_backend;

/* Registers a backend (the struct must outlive its use). Wrong ABI version:
 * NotSupported; duplicate name: InvalidArgument; more than
 * PTERA_MAX_BACKENDS: OutOfResources. */
PTERA_API ptera_status ptera_register_backend(const ptera_backend *backend);

PTERA_API size_t ptera_backend_count(void);
PTERA_API const ptera_backend *ptera_backend_at(size_t index);
PTERA_API const ptera_backend *ptera_find_backend(const char *name, size_t name_len);

#ifdef __cplusplus
}
#endif
#endif

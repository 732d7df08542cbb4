/* The built-in backend table (empty when PTERA_BUILTIN_BACKENDS is off). */
#include "ptera/config.h"
#include "runtime/tables.h"

#if PTERA_BUILTIN_BACKENDS
#include "xnnpack/xnn_backend.h"

const ptera_backend *const pb_builtin_backends[] = {&pb_xnnpack_backend};
const size_t pb_builtin_backend_count = sizeof pb_builtin_backends / sizeof pb_builtin_backends[0];
#else
const ptera_backend *const pb_builtin_backends[] = {NULL};
const size_t pb_builtin_backend_count = 0;
#endif

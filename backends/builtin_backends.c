/* The built-in backend table. */
#include "runtime/tables.h"

#include "xnnpack/xnn_backend.h"

const ptera_backend *const pb_builtin_backends[] = {&pb_xnnpack_backend};
const size_t pb_builtin_backend_count = sizeof pb_builtin_backends / sizeof pb_builtin_backends[0];

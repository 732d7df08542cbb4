/* The built-in XnnpackBackend: runs XNNPACK-delegated subgraphs
 * (docs/XNNPACK.md) on ptera's own kernels. */
#ifndef PX_XNN_BACKEND_H
#define PX_XNN_BACKEND_H

#include "core/core.h"
#include "ptera/backend.h"

PT_FUNC extern const ptera_backend pb_xnnpack_backend;

#endif

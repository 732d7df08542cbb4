/* The backends built into the library (found by ptera_backend_find after
 * the registered ones). Prefix pb_ (backends). */
#ifndef PB_BUILTIN_BACKENDS_H
#define PB_BUILTIN_BACKENDS_H

#include "core/core.h"
#include "ptera/backend.h"

PT_FUNC extern const ptera_backend *const pb_builtin_backends[];
PT_FUNC extern const size_t pb_builtin_backend_count;

#endif

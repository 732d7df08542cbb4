/* Shared body of _softmax / _log_softmax. */
#ifndef PK_SOFTMAX_H
#define PK_SOFTMAX_H

#include "portable/util/iter.h"

/* args: [self, dim, half_to_float, out, ret]; computed in double along dim. */
PT_FUNC ptera_status pk_softmax_common(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t nargs, bool log);

#endif

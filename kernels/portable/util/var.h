/* Shared body of var / var_mean. */
#ifndef PK_VAR_H
#define PK_VAR_H

#include "portable/util/pk.h"

/* self is args[0], dim (int[1]?) args[1]; keepdim_i, out_i (variance) and
 * mean_i (-1: none) are arg indices. */
PT_FUNC ptera_status pk_var_common(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   int keepdim_i, double correction, int out_i, int mean_i);

#endif

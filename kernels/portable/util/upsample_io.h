/* The argument tail shared by the upsample_*2d.vec_out kernels. */
#ifndef PK_UPSAMPLE_IO_H
#define PK_UPSAMPLE_IO_H

#include "portable/util/iter.h"

/* Reads out (args[out_i]), checks in is real and out has its dtype, reads
 * output_size / scale_factors (args[i], args[j]; see pk_upsample_vec_args) into
 * sizes and scales, and resizes out to sizes. */
PT_FUNC ptera_status pk_upsample_out(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                     const ptera_tensor *in, size_t i, size_t j, size_t out_i,
                                     ptera_tensor **out, int32_t *sizes, double *scales);

#endif

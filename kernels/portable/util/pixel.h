/* Argument checks and the copy shared by pixel_shuffle and pixel_unshuffle. */
#ifndef PK_PIXEL_H
#define PK_PIXEL_H

#include "portable/util/iter.h"

/* (self, int factor, *, out): 4 args, out has self's dtype, self has rank >= 3. */
PT_FUNC ptera_status pk_pixel_args(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                   size_t nargs, const char *factor, ptera_tensor **self,
                                   int64_t *r, ptera_tensor **out);
/* Resizes out to self's shape with the last three dims [C, H, W] and fills it:
 * shuffle moves channel blocks of r*r into r x r pixel blocks, unshuffle (the
 * inverse) the other way. */
PT_FUNC ptera_status pk_pixel_copy(ptera_kernel_ctx *ctx, const char *op, ptera_tensor *out,
                                   const ptera_tensor *self, int64_t r, int64_t C, int64_t H,
                                   int64_t W, bool unshuffle);

#endif

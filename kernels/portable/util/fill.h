/* Filling tensors with a Scalar, and the random streams of rand / randn / dropout. */
#ifndef PK_FILL_H
#define PK_FILL_H

#include "portable/util/iter.h"

/* Checks that s can be stored in dtype dt (out is real or bool; integral
 * outs reject floating scalars and values outside their range) and fills all
 * of out's elements with it. */
PT_FUNC ptera_status pk_fill_scalar(ptera_kernel_ctx *ctx, const char *op, const char *name,
                                    ptera_tensor *out, const pk_scalar *s);

/* A splitmix64 stream. Each pk_rng_init takes a fresh, deterministic stream:
 * the n-th call in a process always gets the same numbers. */
typedef struct pk_rng {
  uint64_t state;
} pk_rng;
PT_FUNC void pk_rng_init(pk_rng *r);
PT_FUNC uint64_t pk_rng_next(pk_rng *r);
/* Uniform in [0, 1) with 53 random bits. */
PT_FUNC double pk_rng_uniform(pk_rng *r);
/* Standard normal (Box-Muller). */
PT_FUNC double pk_rng_normal(pk_rng *r);

#endif

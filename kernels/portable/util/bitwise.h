/* Shared driver for the bitwise ops (and/or/xor/not and the shifts): integer
 * and Bool operands only, PyTorch type promotion, computed in int64 and wrapped
 * to the common dtype through the binop loop. */
#ifndef PK_BITWISE_H
#define PK_BITWISE_H

#include "portable/util/binop.h"

typedef enum pk_bitop {
  PK_BIT_AND,
  PK_BIT_OR,
  PK_BIT_XOR,
  PK_BIT_SHL, /* no Bool common dtype */
  PK_BIT_SHR  /* no Bool common dtype */
} pk_bitop;

/* op(Tensor self, Tensor|Scalar other, *, Tensor(a!) out): args [self, other,
 * out, ret]. out may be any real or Bool dtype the common dtype can be cast to.
 * Shifts follow PyTorch 2.x: a shift count below 0 or at least the width of the
 * common dtype gives 0 (left) or the sign fill (right; 0 for unsigned). */
PT_FUNC ptera_status pk_bitwise_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t nargs, bool scalar_other, pk_bitop fn);

/* bitwise_not.out(Tensor self, *, Tensor(a!) out): args [self, out, ret]. */
PT_FUNC ptera_status pk_bitwise_not_kernel(ptera_kernel_ctx *ctx, const char *op,
                                           ptera_value **args, size_t nargs);

#endif
